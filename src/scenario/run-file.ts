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
