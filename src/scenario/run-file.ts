import { loadScenario, ScenarioInvalid } from './load.js';
import { runScenario, type RunOptions, type ScenarioResult } from './run.js';

/** Loads and runs one file. An invalid file is a result with status 'invalid', not an exception. */
export async function runScenarioFile(file: string, cwd: string, options: RunOptions = {}): Promise<ScenarioResult> {
  let scenario;
  try {
    scenario = loadScenario(file, cwd);
  } catch (err) {
    if (!(err instanceof ScenarioInvalid)) throw err;
    const first = err.problems[0];
    return {
      file: first?.location.file ?? file,
      name: file,
      status: 'invalid',
      steps: [],
      failures: [],
      problems: err.problems,
      goldens: [],
      durationMs: 0,
    };
  }
  return runScenario(scenario, options);
}

/** A file whose run threw (a fault of the runner, not of the file): a failed result that says so. */
export function crashedResult(file: string, message: string): ScenarioResult {
  return {
    file,
    name: file,
    status: 'failed',
    steps: [],
    problems: [],
    goldens: [],
    durationMs: 0,
    failures: [{ message: `the scenario runner crashed: ${message}`, location: { file, line: 1, col: 1 } }],
  };
}

/** runScenarioFile, with an exception turned into a crashed result: one file's fault never ends the run. */
export async function runScenarioFileOrCrash(file: string, cwd: string, options: RunOptions = {}): Promise<ScenarioResult> {
  try {
    return await runScenarioFile(file, cwd, options);
  } catch (err) {
    return crashedResult(file, (err as Error).stack ?? String(err));
  }
}
