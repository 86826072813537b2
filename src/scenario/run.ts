/** Runs one loaded scenario: starts the simulator, carries out the steps in order, checks the golden logs. */
import type { Scenario, Step } from './model.js';
import type { Failure, RunOptions, ScenarioResult, StepResult } from './result.js';
import { ScenarioRun, StepError } from './run-state.js';
import { runStep } from './step.js';
import { UnknownVariableError } from './vars.js';

export type { DiffEntry, Failure, RunOptions, ScenarioResult, StepResult } from './result.js';

function now(): number {
  return performance.now();
}

/** A started run, or undefined after recording why the simulator did not start. */
async function startRun(scenario: Scenario, failures: Failure[]): Promise<ScenarioRun | undefined> {
  try {
    const run = new ScenarioRun(scenario);
    await run.start();
    return run;
  } catch (err) {
    failures.push({ message: `cannot start the simulator: ${(err as Error).message}`, location: scenario.map.at('/config') });
    return undefined;
  }
}

/** One step's result; `aborts` when its error ends the scenario (StepError, an unknown variable, a crash). */
async function attemptStep(run: ScenarioRun, step: Step): Promise<{ result: StepResult; aborts: boolean }> {
  try {
    const { label, failures } = await runStep(run, step);
    return {
      result: {
        index: step.index,
        label: step.name === undefined ? label : `${step.name} — ${label}`,
        location: step.location,
        status: failures.length > 0 ? 'failed' : 'passed',
        failures,
      },
      aborts: false,
    };
  } catch (err) {
    const message =
      err instanceof StepError || err instanceof UnknownVariableError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
    return {
      result: {
        index: step.index,
        label: step.name ?? step.action.kind,
        location: step.location,
        status: 'failed',
        failures: [{ message, location: step.location }],
      },
      aborts: true,
    };
  }
}

/** The steps in order; once one aborts (or without a run) the rest are skipped. */
async function runSteps(scenario: Scenario, run: ScenarioRun | undefined): Promise<{ steps: StepResult[]; aborted: boolean }> {
  const steps: StepResult[] = [];
  let aborted = run === undefined;
  for (const step of scenario.steps) {
    if (aborted || run === undefined) {
      steps.push({ index: step.index, label: step.name ?? step.action.kind, location: step.location, status: 'skipped', failures: [] });
      continue;
    }
    const { result, aborts } = await attemptStep(run, step);
    steps.push(result);
    aborted = aborts;
  }
  return { steps, aborted };
}

/** Runs one loaded scenario. Never throws for a scenario's own faults: they are failures. */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const began = now();
  const failures: Failure[] = [];
  const run = await startRun(scenario, failures);
  const { steps, aborted } = await runSteps(scenario, run);
  let goldens: ScenarioResult['goldens'] = [];
  if (run !== undefined && !aborted) {
    const g = run.goldens(options.update === true);
    failures.push(...g.failures);
    goldens = g.goldens;
  }
  try {
    await run?.stop();
  } catch (err) {
    failures.push({ message: `teardown: ${(err as Error).message}`, location: scenario.map.at('') });
  }
  const failed = failures.length > 0 || steps.some((s) => s.status === 'failed');
  return {
    file: scenario.display,
    name: scenario.name,
    status: failed ? 'failed' : 'passed',
    steps,
    failures,
    problems: [],
    goldens,
    durationMs: Math.round(now() - began),
  };
}
