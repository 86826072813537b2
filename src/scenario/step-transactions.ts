/** The transaction steps: mark (remember each account's lastTransactionID) and expectTransactions. */
import type { AccountView } from '../engine/engine.js';
import { compare } from './compare.js';
import type { ActionOf, Since, Step } from './model.js';
import { StepError, type ScenarioRun, type StepOutcome } from './run-state.js';
import { counted, transactionsText } from './texts.js';
import { interpolate } from './vars.js';

export function mark(run: ScenarioRun, a: ActionOf<'mark'>): StepOutcome {
  const ids = new Map<string, number>();
  for (const id of run.engine.accountIds()) ids.set(id, (run.engine.account(id) as AccountView).state.lastTransactionID);
  run.marks.set(a.name, ids);
  const first = [...ids.values()][0];
  return { label: `mark ${a.name} (lastTransactionID ${String(first)})`, failures: [] };
}

/** The transaction ID the step's transactions come after, and how the report words it. */
function sinceOf(run: ScenarioRun, accountId: string, since: Since | undefined): { since: number; text: string } {
  if (since === undefined) {
    // Where the previous expectTransactions on this account stopped.
    const cursor = run.cursors.get(accountId) ?? 0;
    return { since: cursor, text: cursor === 0 ? 'the start' : `${cursor}` };
  }
  if ('mark' in since) {
    const mark = run.marks.get(since.mark)?.get(accountId);
    if (mark === undefined) throw new StepError(`no mark ${since.mark}`);
    return { since: mark, text: `mark ${since.mark} (${mark})` };
  }
  return { since: since.id, text: `${since.id}` };
}

export function expectTransactions(run: ScenarioRun, a: ActionOf<'expectTransactions'>, step: Step): StepOutcome {
  const account = run.account(a.account);
  const { since, text: sinceText } = sinceOf(run, account.id, a.since);
  const actual = account.log.slice(since);
  run.cursors.set(account.id, account.state.lastTransactionID);
  const expected = interpolate(a.items, run.vars) as unknown[];
  const mismatches = compare(expected, actual);
  const label = `expect ${counted(expected.length, 'transaction')} after ${sinceText}${a.account === undefined ? '' : ` on ${account.id}`}`;
  if (mismatches.length === 0) return { label, failures: [] };
  return {
    label,
    failures: [
      {
        message: `the transactions after ${sinceText} differ (${actual.length} created, ${expected.length} expected)`,
        location: step.location,
        diff: run.diff(step, [], mismatches),
        actual: transactionsText(actual),
      },
    ],
  };
}
