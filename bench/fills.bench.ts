/**
 * Fills: many orders filling through the whole path (execute / onQuote -> decide -> evolve ->
 * MemoryJournal line). Every op starts from a fresh engine (tens of microseconds), so the
 * journal and the book do not grow from op to op.
 *
 * - N resting LIMIT buys (N = CROSS_COUNT) at 2,000 price levels, then one quote that crosses them
 *   all: the trigger index pops them and each gets an ORDER_FILL (1 transaction per fill);
 * - the same with takeProfitOnFill + stopLossOnFill: fill + TAKE_PROFIT + STOP_LOSS (3 per fill);
 * - MARKET orders back to back (N = MARKET_COUNT): create + fill (2 per fill);
 * - MARKET orders with takeProfitOnFill + stopLossOnFill: create + fill + TP + SL (4 per fill).
 *
 * For the crossing cases the op also places the orders; the crossing quote is timed inside the op
 * with process.hrtime (summed over every run of the op, warm-up included), and the placement rate
 * is the rest of the op.
 */
import type { Account } from '../src/account/account.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { MemoryJournal } from '../src/journal/journal.js';
import type { OrderRequest } from '../src/orders/request.js';
import { fmtNum, isMain, rmeNote, runStandalone, secondsSince, statsOf, timeCases, type Row, type TimedCase } from './lib.js';

const SUITE = 'fills';
const ACCOUNT = '101-004-1000003-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
/** Sizes keep one op near a second on a 2-core machine (benchmark.js runs each sample twice). */
export const CROSS_COUNT = 10_000;
export const MARKET_COUNT = 4_000;
const LEVELS = 2_000;

const px = (points: number): string => (points / 100_000).toFixed(5);
const OPEN_QUOTE: Tick = { instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 };
/** Below every resting buy (the lowest rests at 1.09000 - 0.01999 = 1.07001): crosses them all. */
const CROSSING_QUOTE: Tick = { instrument: 'EUR_USD', time: T0 + 1_000_000, bid: 1.0699, ask: 1.07 };

function freshEngine(): { engine: Engine; journal: MemoryJournal; account: Account } {
  const journal = new MemoryJournal();
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000000' }], start: T0, journal });
  engine.pushTick(OPEN_QUOTE);
  return { engine, journal, account: engine.account(ACCOUNT) as Account };
}

export function limitBuys(count: number, withTpSl: boolean): OrderRequest[] {
  const out: OrderRequest[] = [];
  for (let i = 0; i < count; i += 1) {
    const price = 109_000 - (i % LEVELS);
    const order: OrderRequest = { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: px(price) };
    if (withTpSl) {
      order.takeProfitOnFill = { price: px(price + 500) };
      order.stopLossOnFill = { price: '1.05000' };
    }
    out.push(order);
  }
  return out;
}

export function marketBuys(count: number, withTpSl: boolean): OrderRequest[] {
  const out: OrderRequest[] = [];
  for (let i = 0; i < count; i += 1) {
    const order: OrderRequest = { type: 'MARKET', instrument: 'EUR_USD', units: '100' };
    if (withTpSl) {
      order.takeProfitOnFill = { price: '1.12000' };
      order.stopLossOnFill = { price: '1.08000' };
    }
    out.push(order);
  }
  return out;
}

interface Counts {
  fills: number;
  transactions: number;
  journalLines: number;
}

function countOf(account: Account, journal: MemoryJournal, fromIndex: number): Counts {
  let fills = 0;
  for (const tx of account.log.from(fromIndex + 1)) if (tx.type === 'ORDER_FILL') fills += 1;
  return { fills, transactions: account.log.length - fromIndex, journalLines: journal.lineCount(ACCOUNT) };
}

/** A crossing case: the op places `orders` and pushes the crossing quote; the quote is timed. */
export class CrossingCase {
  crossSeconds = 0;
  opSeconds = 0;
  runs = 0;
  last: Counts = { fills: 0, transactions: 0, journalLines: 0 };

  constructor(private readonly orders: readonly OrderRequest[]) {}

  readonly run = (): void => {
    const opStart = process.hrtime.bigint();
    const { engine, journal, account } = freshEngine();
    for (const order of this.orders) engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order });
    const before = account.log.length;
    const crossStart = process.hrtime.bigint();
    engine.pushTick(CROSSING_QUOTE);
    this.crossSeconds += secondsSince(crossStart);
    this.opSeconds += secondsSince(opStart);
    this.runs += 1;
    this.last = countOf(account, journal, before);
  };
}

/** A MARKET case: the whole op is N orders, each created and filled in its own batch. */
export function marketCase(orders: readonly OrderRequest[]): { run: () => void; counts: () => Counts } {
  let last: Counts = { fills: 0, transactions: 0, journalLines: 0 };
  return {
    run: (): void => {
      const { engine, journal, account } = freshEngine();
      const before = account.log.length;
      for (const order of orders) engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order });
      last = countOf(account, journal, before);
    },
    counts: () => last,
  };
}

export async function fills(): Promise<Row[]> {
  const names = {
    cross: `LIMIT x${fmtNum(CROSS_COUNT)} crossed by one quote`,
    crossTpSl: `LIMIT x${fmtNum(CROSS_COUNT)} + TP/SL on fill, crossed by one quote`,
    market: `MARKET x${fmtNum(MARKET_COUNT)} back to back`,
    marketTpSl: `MARKET x${fmtNum(MARKET_COUNT)} + TP/SL on fill`,
  };
  const cross = new CrossingCase(limitBuys(CROSS_COUNT, false));
  const crossTpSl = new CrossingCase(limitBuys(CROSS_COUNT, true));
  const market = marketCase(marketBuys(MARKET_COUNT, false));
  const marketTpSl = marketCase(marketBuys(MARKET_COUNT, true));
  const cases: TimedCase[] = [
    { name: names.cross, fn: cross.run },
    { name: names.crossTpSl, fn: crossTpSl.run },
    { name: names.market, fn: market.run },
    { name: names.marketTpSl, fn: marketTpSl.run },
  ];
  const engineStart = process.hrtime.bigint();
  for (let i = 0; i < 100; i += 1) freshEngine();
  const engineMicros = (secondsSince(engineStart) / 100) * 1e6;
  process.stdout.write(`fills: a fresh engine + account + first quote costs ${engineMicros.toFixed(0)} µs (part of every op)\n`);

  const stats = await timeCases(SUITE, cases, { maxTime: 2, minSamples: 3 });
  const rows: Row[] = [];
  const warn = (c: Counts, expected: number): string => (c.fills === expected ? '' : `; WARNING: ${c.fills} fills, expected ${expected}`);

  for (const [key, c] of [
    ['cross', cross],
    ['crossTpSl', crossTpSl],
  ] as const) {
    const s = statsOf(stats, names[key]);
    const fillsPerSecond = (c.last.fills * c.runs) / c.crossSeconds;
    const txPerFill = c.last.transactions / c.last.fills;
    const placeSeconds = c.opSeconds - c.crossSeconds;
    rows.push({
      suite: SUITE,
      id: `fills.${key}`,
      name: names[key],
      value: fillsPerSecond,
      unit: 'fills/s',
      note: `crossing quote only, ${c.runs} runs; whole op (place + cross) ${rmeNote(s)}${warn(c.last, CROSS_COUNT)}`,
    });
    rows.push({
      suite: SUITE,
      id: `fills.${key}.tx`,
      name: `${names[key]}: transactions`,
      value: fillsPerSecond * txPerFill,
      unit: 'tx/s',
      note: `${txPerFill} transaction${txPerFill === 1 ? '' : 's'} per fill in the crossing batch; ${fmtNum(c.last.journalLines)} journal lines per op`,
    });
    rows.push({
      suite: SUITE,
      id: `fills.${key}.place`,
      name: `${names[key]}: placing the orders`,
      value: (CROSS_COUNT * c.runs) / placeSeconds,
      unit: 'orders/s',
      note: 'execute(CREATE_ORDER) of a resting LIMIT: the rest of the op',
    });
  }
  for (const [key, c] of [
    ['market', market],
    ['marketTpSl', marketTpSl],
  ] as const) {
    const s = statsOf(stats, names[key]);
    const counts = c.counts();
    const fillsPerSecond = s.hz * counts.fills;
    const txPerFill = counts.transactions / counts.fills;
    rows.push({
      suite: SUITE,
      id: `fills.${key}`,
      name: names[key],
      value: fillsPerSecond,
      unit: 'fills/s',
      note: `ops/s x ${fmtNum(counts.fills)}; ${rmeNote(s)}${warn(counts, MARKET_COUNT)}`,
    });
    rows.push({
      suite: SUITE,
      id: `fills.${key}.tx`,
      name: `${names[key]}: transactions`,
      value: fillsPerSecond * txPerFill,
      unit: 'tx/s',
      note: `${txPerFill} transactions per fill; ${fmtNum(counts.journalLines)} journal lines per op`,
    });
  }
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(fills);
