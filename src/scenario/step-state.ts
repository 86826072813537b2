/** The expectState step: the account, orders, trades and positions as the v3 read operations answer them. */
import { getAccount, getAccountSummary } from '../v3/accounts.js';
import type { V3Call } from '../v3/call.js';
import { getOrder, listPendingOrders } from '../v3/orders.js';
import { listPositions } from '../v3/positions.js';
import type { V20Response } from '../v3/response.js';
import { getTrade, listOpenTrades } from '../v3/trades.js';
import { compare } from './compare.js';
import type { ActionOf, StateChecks, Step } from './model.js';
import type { ScenarioRun, StepOutcome } from './run-state.js';
import { counted } from './texts.js';
import { interpolate } from './vars.js';

/** One comparison: what the step expects at `path` and what the account has there; `part` names it in the label. */
interface StateRead {
  readonly part: string;
  readonly path: readonly (string | number)[];
  readonly expected: unknown;
  readonly actual: unknown;
}

/** A field of a v3 read's answer; a 404 (no such order or trade) is nothing. */
function answered(response: V20Response, key: string): unknown {
  return response.status === 200 ? response.body[key] : undefined;
}

/** Each check of the step with what the v3 read operations answer for it, in the order of StateChecks. */
function stateReads(call: V3Call, checks: StateChecks): StateRead[] {
  const reads: StateRead[] = [];
  const read = (part: string, path: (string | number)[], expected: unknown, actual: unknown): void => {
    reads.push({ part, path, expected, actual });
  };
  if (checks.summary !== undefined) read('summary', ['summary'], checks.summary, answered(getAccountSummary(call), 'account'));
  if (checks.account !== undefined) read('account', ['account'], checks.account, answered(getAccount(call), 'account'));
  for (const [spec, expected] of Object.entries(checks.orders ?? {}))
    read(`order ${spec}`, ['orders', spec], expected, answered(getOrder(call, spec), 'order'));
  for (const [spec, expected] of Object.entries(checks.trades ?? {}))
    read(`trade ${spec}`, ['trades', spec], expected, answered(getTrade(call, spec), 'trade'));
  if (checks.positions !== undefined) {
    // Positions of instruments the account has traded: never traded is nothing, not a flat position.
    const positions = listPositions(call).body['positions'] as { instrument: string }[];
    for (const [instrument, expected] of Object.entries(checks.positions))
      read(
        `position ${instrument}`,
        ['positions', instrument],
        expected,
        positions.find((p) => p.instrument === instrument),
      );
  }
  if (checks.pendingOrders !== undefined)
    read('pending orders', ['pendingOrders'], checks.pendingOrders, answered(listPendingOrders(call), 'orders'));
  if (checks.openTrades !== undefined) read('open trades', ['openTrades'], checks.openTrades, answered(listOpenTrades(call), 'trades'));
  return reads;
}

export function expectState(run: ScenarioRun, a: ActionOf<'expectState'>, step: Step): StepOutcome {
  const account = run.account(a.account);
  const checks = interpolate(a.checks, run.vars) as StateChecks;
  const reads = stateReads({ engine: run.engine, accountID: account.id }, checks);
  const entries = reads.flatMap((r) => run.diff(step, r.path, compare(r.expected, r.actual)));
  const label = `expect state${a.account === undefined ? '' : ` of ${account.id}`}: ${reads.map((r) => r.part).join(', ')}`;
  if (entries.length === 0) return { label, failures: [] };
  return {
    label,
    failures: [{ message: `the account state differs: ${counted(entries.length, 'difference')}`, location: step.location, diff: entries }],
  };
}
