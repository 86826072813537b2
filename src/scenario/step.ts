/** One step of a scenario: the action's kind picks the step-*.ts function that carries it out. */
import type { Action, ActionOf, Step } from './model.js';
import type { ScenarioRun, StepOutcome } from './run-state.js';
import { advanceBy, advanceEnd, advanceTicks, advanceTo, pushTicks } from './step-clock.js';
import { request } from './step-request.js';
import { expectState } from './step-state.js';
import { closeStream, expectStream, openStream } from './step-stream.js';
import { expectTransactions, mark } from './step-transactions.js';

/** Carries out one kind of action; `step` places its expectations in the file. */
type StepFunction<K extends Action['kind']> = (run: ScenarioRun, action: ActionOf<K>, step: Step) => StepOutcome | Promise<StepOutcome>;

const STEPS: { readonly [K in Action['kind']]: StepFunction<K> } = {
  advanceTo,
  advanceBy,
  advanceTicks,
  advanceEnd,
  ticks: pushTicks,
  request,
  mark,
  expectTransactions,
  expectState,
  openStream,
  expectStream,
  closeStream,
};

/** Carries out `step`; throws StepError (or an interpolation error) when the scenario cannot go on. */
export async function runStep(run: ScenarioRun, step: Step): Promise<StepOutcome> {
  // The table pairs each kind with its function; TypeScript cannot follow that through the lookup.
  const carryOut = STEPS[step.action.kind] as StepFunction<Action['kind']>;
  return carryOut(run, step.action, step);
}
