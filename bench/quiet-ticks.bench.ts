/**
 * Quiet ticks: quotes that cross nothing, through one account, with 0, 100, 10,000 and 100,000
 * resting orders. DESIGN.md ("The hot path"): such a tick costs a few comparisons and allocates
 * nothing, so ticks/s must not fall as the resting count grows.
 *
 * The book: LIMIT buys and STOP sells far below the band, LIMIT sells and STOP buys far above it,
 * half of them triggered on MID, plus an open trade with a TAKE_PROFIT and a STOP_LOSS: all six
 * heaps of the instrument are non-empty. The ticks: 100,000 generated EUR/USD quotes folded into a
 * 1.09500..1.10500 band, so nothing ever crosses. One op = one pass over the 100,000 ticks.
 * After the timing, one more pass through engine.pushTick with no book and with the largest, under
 * V8's sampling heap profiler: the bytes a quiet quote allocates (DESIGN.md: none).
 */
import type { Account } from '../src/account/account.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { generateTicks } from '../src/engine/feeds/index.js';
import type { OrderRequest } from '../src/orders/request.js';
import { allocatedBytes } from './allocations.js';
import { fmtNum, isMain, rmeNote, runStandalone, statsOf, timeCases, type Row, type TimedCase } from './lib.js';

const SUITE = 'quiet-ticks';
const ACCOUNT = '101-004-1000002-001';
const TICK_COUNT = 100_000;
export const RESTING_COUNTS = [0, 100, 10_000, 100_000] as const;

/** The band the ticks stay in, in points (1e-5) of EUR/USD, and where the orders rest. */
const BAND_LOW = 109_500;
const BAND_WIDTH = 1_000;
const BELOW = 109_000; // orders below the band start here and go down
const ABOVE = 111_000; // orders above the band start here and go up
const LEVELS = 3_000;

/** A quote whose time the benchmark moves forward on each pass (the account never keeps it). */
interface BenchTick {
  instrument: string;
  time: number;
  bid: number;
  ask: number;
}

const px = (points: number): string => (points / 100_000).toFixed(5);

/** Generated quotes (a realistic walk with spread bursts) reflected into the band. */
export function bandTicks(count = TICK_COUNT): BenchTick[] {
  const out: BenchTick[] = [];
  let base: number | undefined;
  for (const t of generateTicks({ seed: 'quiet-ticks', instruments: ['EUR_USD'], count })) {
    const bid = Math.round(t.bid * 100_000);
    const spread = Math.round(t.ask * 100_000) - bid;
    const mid2 = 2 * bid + spread;
    base ??= mid2;
    const period = 4 * BAND_WIDTH; // doubled units
    let m = (((mid2 - base) % period) + period) % period;
    if (m > 2 * BAND_WIDTH) m = period - m;
    const newBid = BAND_LOW + Math.floor((m - spread) / 2);
    out.push({ instrument: 'EUR_USD', time: t.time, bid: newBid / 100_000, ask: (newBid + spread) / 100_000 });
  }
  return out;
}

/** The i-th resting order of the book (prices repeat every LEVELS orders). */
function restingOrder(i: number): OrderRequest {
  const level = Math.floor(i / 8) % LEVELS;
  const mid = i % 8 >= 4;
  const kind = i % 4;
  const below = px(BELOW - level);
  const above = px(ABOVE + level);
  const order: OrderRequest =
    kind === 0
      ? { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: below }
      : kind === 1
        ? { type: 'LIMIT', instrument: 'EUR_USD', units: '-100', price: above }
        : kind === 2
          ? { type: 'STOP', instrument: 'EUR_USD', units: '100', price: above }
          : { type: 'STOP', instrument: 'EUR_USD', units: '-100', price: below };
  if (mid) order.triggerCondition = 'MID';
  return order;
}

interface Book {
  readonly engine: Engine;
  readonly account: Account;
  readonly resting: number;
}

/** An engine with one account holding exactly `resting` pending orders (none for 0). */
function buildBook(resting: number, first: BenchTick): Book {
  // Each pass moves the ticks a span later, so without this they would soon fall on a weekend,
  // where a quote triggers nothing: an always-open calendar keeps every pass on the trading path.
  const engine = createEngine({
    accounts: [{ id: ACCOUNT, currency: 'USD', balance: '10000000' }],
    start: first.time,
    marketHours: { weekly: 'ALWAYS' },
  });
  const account = engine.account(ACCOUNT) as Account;
  engine.pushTick(first);
  if (resting > 0) {
    // An open trade with TP and SL: two of the resting orders.
    engine.execute(ACCOUNT, {
      type: 'CREATE_ORDER',
      order: {
        type: 'MARKET',
        instrument: 'EUR_USD',
        units: '1000',
        takeProfitOnFill: { price: px(ABOVE + LEVELS + 500) },
        stopLossOnFill: { price: px(BELOW - LEVELS - 500) },
      },
    });
    for (let i = 0; i < resting - 2; i += 1) engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: restingOrder(i) });
  }
  if (account.state.pendingCount !== resting)
    throw new Error(`quiet-ticks: wanted ${resting} resting orders, have ${account.state.pendingCount}`);
  return { engine, account, resting };
}

function caseName(path: 'onQuote' | 'pushTick', resting: number): string {
  return `${path === 'onQuote' ? 'Account.onQuote' : 'engine.pushTick'}, ${fmtNum(resting)} resting`;
}

export async function quietTicks(): Promise<Row[]> {
  const ticks = bandTicks();
  const first = ticks[0] as BenchTick;
  const last = ticks[ticks.length - 1] as BenchTick;
  const span = last.time - first.time + 1;
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of ticks) {
    lo = Math.min(lo, t.bid);
    hi = Math.max(hi, t.ask);
  }
  process.stdout.write(
    `quiet-ticks: ${fmtNum(ticks.length)} ticks, bid >= ${lo.toFixed(5)}, ask <= ${hi.toFixed(5)}; building books of ${RESTING_COUNTS.map((n) => fmtNum(n)).join(', ')} orders...\n`,
  );
  const started = process.hrtime.bigint();
  const books = RESTING_COUNTS.map((n) => buildBook(n, first));
  process.stdout.write(`  books built in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s\n`);
  const logLengths = books.map((bk) => bk.account.log.length);

  // Each pass moves every tick one span later, so time only moves forward (one add per tick).
  const n = ticks.length;
  const direct = (account: Account) => (): void => {
    for (let i = 0; i < n; i += 1) {
      const t = ticks[i] as BenchTick;
      t.time += span;
      account.onQuote(t);
    }
  };
  const viaEngine = (engine: Engine) => (): void => {
    for (let i = 0; i < n; i += 1) {
      const t = ticks[i] as BenchTick;
      t.time += span;
      engine.pushTick(t);
    }
  };
  const cases: TimedCase[] = [];
  for (const bk of books) {
    cases.push({ name: caseName('onQuote', bk.resting), fn: direct(bk.account) });
    cases.push({ name: caseName('pushTick', bk.resting), fn: viaEngine(bk.engine) });
  }
  const stats = await timeCases(SUITE, cases);

  const rows: Row[] = [];
  // Passes move the clock ~7 simulated hours each, so the open trade earns DAILY_FINANCING at
  // every 5pm New York rollover: expected, and not a crossing.
  const crossedNote = (i: number): string => {
    const bk = books[i] as Book;
    const byType = new Map<string, number>();
    for (const tx of bk.account.log.slice(logLengths[i] as number)) byType.set(tx.type, (byType.get(tx.type) ?? 0) + 1);
    const financing = byType.get('DAILY_FINANCING') ?? 0;
    byType.delete('DAILY_FINANCING');
    const crossed = bk.account.state.pendingCount !== bk.resting || byType.size > 0;
    const other = [...byType].map(([type, count]) => `${count} ${type}`).join(', ');
    return `${crossed ? `WARNING: crossed (${other})` : 'nothing crossed'}${financing > 0 ? `; ${financing} DAILY_FINANCING over all passes` : ''}`;
  };
  for (const path of ['onQuote', 'pushTick'] as const) {
    const mean: number[] = [];
    const best: number[] = [];
    books.forEach((bk, i) => {
      const s = statsOf(stats, caseName(path, bk.resting));
      mean.push(s.hz * n);
      best.push(s.best * n);
      rows.push({
        suite: SUITE,
        id: `quiet.${path}.${bk.resting}`,
        name: caseName(path, bk.resting),
        value: s.hz * n,
        unit: 'ticks/s',
        note: rmeNote(s, `best pass ${fmtNum(s.best * n)} ticks/s; ${crossedNote(i)}`),
      });
    });
    const ratio = (xs: readonly number[]): number => (xs[xs.length - 1] as number) / (xs[0] as number);
    rows.push({
      suite: SUITE,
      id: `quiet.${path}.ratio`,
      name: `${path}: 100,000 resting vs 0 (mean)`,
      value: ratio(mean),
      unit: 'x',
      note: 'mean ticks/s at 100,000 / at 0 (1.00 = flat)',
    });
    rows.push({
      suite: SUITE,
      id: `quiet.${path}.ratioBest`,
      name: `${path}: 100,000 resting vs 0 (best pass)`,
      value: ratio(best),
      unit: 'x',
      note: 'fastest pass at 100,000 / at 0: least disturbed by other load',
    });
    rows.push({
      suite: SUITE,
      id: `quiet.${path}.ratio100`,
      name: `${path}: 100,000 resting vs 100 (mean)`,
      value: (mean[mean.length - 1] as number) / (mean[1] as number),
      unit: 'x',
      note: 'a non-empty book at both ends: what the resting count itself costs',
    });
    const side = (xs: readonly number[]): string => RESTING_COUNTS.map((c, i) => `${fmtNum(c)}: ${fmtNum(xs[i] as number)}`).join(' | ');
    process.stdout.write(`  ${path} ticks/s by resting orders, mean: ${side(mean)}  (100k/0 = ${ratio(mean).toFixed(2)})\n`);
    process.stdout.write(`  ${path} ticks/s by resting orders, best: ${side(best)}  (100k/0 = ${ratio(best).toFixed(2)})\n`);
  }
  for (const bk of [books[0], books[books.length - 1]] as Book[]) rows.push(await allocationRow(bk, viaEngine(bk.engine), n));
  return rows;
}

/**
 * What a quiet quote allocates through engine.pushTick: a pass under the heap sampler, after one
 * untimed pass of the same closure (a new closure starts in the interpreter, which boxes numbers).
 */
async function allocationRow(bk: Book, pass: () => void, ticks: number): Promise<Row> {
  pass();
  const perQuote = (await allocatedBytes(pass)) / ticks;
  process.stdout.write(`  engine.pushTick, ${fmtNum(bk.resting)} resting: ${perQuote.toFixed(1)} bytes allocated a quote\n`);
  return {
    suite: SUITE,
    id: `quiet.pushTick.alloc.${bk.resting}`,
    name: `engine.pushTick, ${fmtNum(bk.resting)} resting: heap allocated per quote`,
    value: perQuote,
    unit: 'bytes/quote',
    note: `one pass of ${fmtNum(ticks)} quotes under V8's sampling heap profiler, freed objects included (an estimate; a rollover's DAILY_FINANCING is spread over the pass)`,
  };
}

if (isMain(import.meta.url)) await runStandalone(quietTicks);
