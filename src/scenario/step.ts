/** One step of a scenario: the action's kind picks the step-*.ts function that carries it out. */
import type { Step } from './model.js';
import type { ScenarioRun, StepOutcome } from './run-state.js';
import { advanceBy, advanceEnd, advanceTicks, advanceTo, pushTicks } from './step-clock.js';
import { request } from './step-request.js';
import { expectState } from './step-state.js';
import { closeStream, expectStream, openStream } from './step-stream.js';
import { expectTransactions, mark } from './step-transactions.js';

/** Carries out `step`; throws StepError (or an interpolation error) when the scenario cannot go on. */
export async function runStep(run: ScenarioRun, step: Step): Promise<StepOutcome> {
  const a = step.action;
  switch (a.kind) {
    case 'advanceTo':
      return advanceTo(run, a);
    case 'advanceBy':
      return advanceBy(run, a);
    case 'advanceTicks':
      return advanceTicks(run, a);
    case 'advanceEnd':
      return advanceEnd(run);
    case 'ticks':
      return pushTicks(run, a);
    case 'request':
      return request(run, step, a);
    case 'mark':
      return mark(run, a);
    case 'expectTransactions':
      return expectTransactions(run, step, a);
    case 'expectState':
      return expectState(run, step, a);
    case 'openStream':
      return openStream(run, a);
    case 'expectStream':
      return expectStream(run, step, a);
    case 'closeStream':
      return closeStream(run, a);
  }
}
