/**
 * A long-running account: what listing its pending orders and open trades costs once it has a
 * long history behind it. Ten resting LIMITs stay pending and one trade stays open while HISTORY
 * round trips (a MARKET entry with a take profit and a stop loss, closed with both dependents
 * cancelled) pile up filled, cancelled and closed records; each list is timed with the history
 * and on a fresh account with only the live records. The lists cost what is live plus at most as
 * many ended records again (account/live-records.ts), not what happened: microseconds, where a
 * walk of every order and trade costs milliseconds at this size.
 */
import { accountView } from '../src/account/views.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { openTradesNewestFirst, pendingOrdersNewestFirst } from '../src/v3/lists.js';
import { listOrders } from '../src/v3/orders.js';
import { listTrades } from '../src/v3/trades.js';
import type { AccountState } from '../src/account/state.js';
import { fmtNum, isMain, runStandalone, type Row } from './lib.js';

const SUITE = 'history';
const ACCOUNT = '101-004-1000007-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
export const HISTORY = 20_000;
const PENDING = 10;

interface Account {
  readonly engine: Engine;
  readonly state: AccountState;
}

function accountWith(history: number): Account {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000000' }], start: T0 });
  engine.pushTick({ instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 });
  engine.pushTick({ instrument: 'GBP_USD', time: T0, bid: 1.25, ask: 1.2502 });
  for (let i = 0; i < PENDING; i += 1) {
    engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' } });
  }
  // The trade that stays open is in another instrument than the round trips.
  engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'GBP_USD', units: '-100' } });
  for (let i = 0; i < history; i += 1) {
    const order = {
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '100',
      takeProfitOnFill: { price: '1.20000' },
      stopLossOnFill: { price: '1.00000' },
    };
    engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order });
    engine.execute(ACCOUNT, { type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL' });
  }
  const state = engine.account(ACCOUNT)?.state;
  if (state === undefined) throw new Error(`no account ${ACCOUNT}`);
  return { engine, state };
}

/** Microseconds a call, the fastest of 20 rounds of 20 calls. */
function microsPerCall(f: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 20; round += 1) {
    const start = process.hrtime.bigint();
    for (let k = 0; k < 20; k += 1) f();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / 20);
  }
  return best;
}

export function history(): Promise<Row[]> {
  const fresh = accountWith(0);
  const long = accountWith(HISTORY);
  const lists: ReadonlyArray<readonly [string, string, (account: Account) => unknown]> = [
    ['pending', 'pending orders (GET pendingOrders)', ({ state }) => pendingOrdersNewestFirst(state)],
    ['open', 'open trades (GET openTrades)', ({ state }) => openTradesNewestFirst(state)],
    ['orders', 'a page of orders, default state PENDING (GET orders)', ({ engine }) => listOrders({ engine, accountID: ACCOUNT }, {})],
    ['trades', 'a page of trades, default state OPEN (GET trades)', ({ engine }) => listTrades({ engine, accountID: ACCOUNT }, {})],
    ['account', 'the Account (GET account)', ({ state }) => accountView(state)],
  ];
  process.stdout.write(
    `history: ${fmtNum(PENDING)} pending orders and 1 open trade, then ${fmtNum(HISTORY)} round trips: ${fmtNum(long.state.orders.size)} orders, ${fmtNum(long.state.trades.size)} trades\n`,
  );
  const rows: Row[] = [];
  for (const [id, name, list] of lists) {
    // Both accounts once first, so neither measurement pays for compiling the views.
    microsPerCall(() => list(fresh));
    microsPerCall(() => list(long));
    const before = microsPerCall(() => list(fresh));
    const after = microsPerCall(() => list(long));
    process.stdout.write(`  ${name}: ${before.toFixed(1)} µs fresh, ${after.toFixed(1)} µs after the history\n`);
    rows.push({
      suite: SUITE,
      id: `history.${id}.us`,
      name: `${name} after ${fmtNum(HISTORY)} round trips`,
      value: after,
      unit: 'µs',
      note: `${after.toFixed(1)} µs; ${before.toFixed(1)} µs on a fresh account with the same live records; ${fmtNum(long.state.orders.size)} orders and ${fmtNum(long.state.trades.size)} trades behind it`,
    });
  }
  return Promise.resolve(rows);
}

if (isMain(import.meta.url)) await runStandalone(history);
