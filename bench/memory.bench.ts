/**
 * Heap bytes per pending order: heapUsed after a full collection, before and after placing
 * 100,000 resting LIMIT orders in one account, divided by the count. Four builds:
 *
 * - the account alone (Account.open with no sink): order records, creation transactions (kept in
 *   the account's log), trigger-index entries, maps;
 * - the same with clientExtensions {id, tag, comment} on every order;
 * - an engine with a MemoryJournal, with and without clientExtensions; the journal's share is what
 *   stays on the heap when the engine is dropped and the journal kept (one serialized line per order).
 *
 * Needs a collector: run node with --expose-gc (npm run bench does); otherwise it is switched on at
 * runtime through v8.setFlagsFromString.
 */
import { Account } from '../src/account/account.js';
import { buildCatalogue } from '../src/domain/instruments.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { MemoryJournal } from '../src/journal/journal.js';
import type { OrderRequest } from '../src/orders/request.js';
import { collector, fmtNum, isMain, runStandalone, type Row } from './lib.js';

const SUITE = 'memory';
const ACCOUNT = '101-004-1000004-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
export const ORDER_COUNT = 100_000;
const QUOTE: Tick = { instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 };

/**
 * The i-th order: buys below and sells above the market on 5,000 levels. Built inside the measured
 * region, as a client's parsed request would be, so the strings the account keeps are counted.
 */
function order(i: number, withExtensions: boolean): OrderRequest {
  const level = Math.floor(i / 2) % 5_000;
  const buy = i % 2 === 0;
  const points = buy ? 109_000 - level : 111_000 + level;
  const o: OrderRequest = { type: 'LIMIT', instrument: 'EUR_USD', units: buy ? '1000' : '-1000', price: (points / 100_000).toFixed(5) };
  if (withExtensions) o.clientExtensions = { id: `grid-${i}`, tag: 'bench-grid', comment: `level ${level} ${buy ? 'buy' : 'sell'}` };
  return o;
}

/** heapUsed after two full collections. */
function heapUsed(): number {
  const gc = collector();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const catalogue = buildCatalogue();

function accountOnly(count: number, withExtensions: boolean): Account {
  const account = Account.open({ id: ACCOUNT, currency: 'USD', balance: '100000000' }, catalogue, T0);
  account.onQuote(QUOTE);
  for (let i = 0; i < count; i += 1) account.execute({ type: 'CREATE_ORDER', order: order(i, withExtensions) }, T0);
  return account;
}

function withJournal(count: number, withExtensions: boolean): { engine: Engine; journal: MemoryJournal } {
  const journal = new MemoryJournal();
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000000' }], start: T0, journal });
  engine.pushTick(QUOTE);
  for (let i = 0; i < count; i += 1) engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: order(i, withExtensions) });
  return { engine, journal };
}

interface Measured {
  /** Account alone, no sink. */
  readonly account: number;
  /** Engine + MemoryJournal. */
  readonly total: number;
  /** What stays when the engine is dropped and the journal kept: its serialized lines. */
  readonly journal: number;
  readonly pendingAlone: number;
  readonly pendingEngine: number;
  readonly lines: number;
  readonly heapMB: number;
}

/** Builds the account alone and reads the heap while it is live; only numbers leave the frame. */
function accountReading(withExtensions: boolean): { after: number; pending: number } {
  const account = accountOnly(ORDER_COUNT, withExtensions);
  const after = heapUsed();
  return { after, pending: account.state.pendingCount };
}

/**
 * Builds engine + journal and reads the heap while both are live; only the journal leaves the
 * frame, so once this returns the engine and its account are garbage.
 */
function engineReading(withExtensions: boolean): { after: number; pending: number; journal: MemoryJournal } {
  const { engine, journal } = withJournal(ORDER_COUNT, withExtensions);
  const after = heapUsed();
  return { after, pending: engine.account(ACCOUNT)?.state.pendingCount ?? 0, journal };
}

function measureOnce(withExtensions: boolean): Measured {
  // Warm-up (not measured): bytecode, feedback and caches of the path are not the orders' cost.
  void accountOnly(2_000, withExtensions);
  void withJournal(2_000, withExtensions);

  const before = heapUsed();
  const alone = accountReading(withExtensions);
  const beforeEngine = heapUsed();
  const built = engineReading(withExtensions);
  const journalOnly = heapUsed();
  const lines = built.journal.lineCount(ACCOUNT);
  return {
    account: (alone.after - before) / ORDER_COUNT,
    total: (built.after - beforeEngine) / ORDER_COUNT,
    journal: (journalOnly - beforeEngine) / ORDER_COUNT,
    pendingAlone: alone.pending,
    pendingEngine: built.pending,
    lines,
    heapMB: built.after / 2 ** 20,
  };
}

export function memory(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const ext of [false, true]) {
    const label = ext ? 'with clientExtensions' : 'no clientExtensions';
    const key = ext ? 'ext' : 'plain';
    const m = measureOnce(ext);
    rows.push({
      suite: SUITE,
      id: `memory.account.${key}`,
      name: `account alone (no journal), ${label}`,
      value: m.account,
      unit: 'bytes/order',
      note: `Account.open, no sink; ${fmtNum(m.pendingAlone)} pending`,
    });
    rows.push({
      suite: SUITE,
      id: `memory.journal.${key}`,
      name: `MemoryJournal lines, ${label}`,
      value: m.journal,
      unit: 'bytes/order',
      note: `heap left when the engine is dropped and the journal kept (${fmtNum(m.lines)} lines)`,
    });
    rows.push({
      suite: SUITE,
      id: `memory.total.${key}`,
      name: `engine + MemoryJournal, ${label}`,
      value: m.total,
      unit: 'bytes/order',
      note: `${fmtNum(m.pendingEngine)} pending`,
    });
    rows.push({
      suite: SUITE,
      id: `memory.heap.${key}`,
      name: `heap with ${fmtNum(ORDER_COUNT)} orders + journal, ${label}`,
      value: m.heapMB,
      unit: 'heap MB',
      note: 'process heapUsed after a full collection',
    });
    process.stdout.write(
      `memory, ${label}: account alone ${fmtNum(m.account)}, journal lines ${fmtNum(m.journal)}, engine + journal ${fmtNum(m.total)} bytes/order\n`,
    );
  }
  return Promise.resolve(rows);
}

if (isMain(import.meta.url)) await runStandalone(memory);
