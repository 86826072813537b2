/**
 * End to end on the real data: 532,903 OANDA EUR/USD ticks of May 2014 in 13 LEAN zips, read
 * (file, unzip, parse), fed to an engine whose account runs the resting-grid strategy of the
 * determinism test (about 1,000 LIMIT orders resting, TP/SL on fill, fills regularly), every
 * transaction appended to a MemoryJournal as a serialized line. One op = one whole pass.
 *
 * The split: parse only (zips -> Tick objects), a sweep's read into shared columns (the LEAN byte
 * reader against the general reader), engine + strategy + journal on a pre-parsed array, and the
 * bare quote path on the same array (no orders at all).
 */
import { readLeanColumns, readTickColumns } from '../src/backtest/tick-columns.js';
import { openTicks } from '../src/backtest/tick-files.js';
import type { Tick } from '../src/domain/tick.js';
import { createEngine, type Engine } from '../src/engine/engine.js';
import { MemoryJournal } from '../src/journal/journal.js';
import { LEAN_DIR, hasLeanData, leanFiles, leanTicks } from '../test/support/lean-eurusd.js';
import { restingGrid } from '../test/support/resting-grid.js';
import { fmtNum, isMain, rmeNote, runStandalone, statsOf, timeCases, type Row } from './lib.js';

const SUITE = 'end-to-end';
const ACCOUNT = '101-004-1000001-001';
const START = Date.UTC(2014, 4, 1) * 1000;
const MAX_COLUMN_TICKS = 1 << 24;

interface PassResult {
  readonly ticks: number;
  readonly engine: Engine;
  readonly journal: MemoryJournal;
}

/** The run of test/support/run-grid.ts without its final digest: engine, grid, journal. */
export function gridPass(ticks: Iterable<Tick>): PassResult {
  const journal = new MemoryJournal();
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000' }], start: START, journal, seed: 1 });
  const strategy = restingGrid(engine, ACCOUNT, { resting: 1000, every: 20, units: '1000' });
  let count = 0;
  for (const tick of ticks) {
    engine.pushTick(tick);
    strategy(tick);
    count += 1;
  }
  return { ticks: count, engine, journal };
}

function quotesOnly(ticks: readonly Tick[]): void {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000000' }], start: START, seed: 1 });
  for (let i = 0; i < ticks.length; i += 1) engine.pushTick(ticks[i] as Tick);
}

/** A sweep's read: each zip into shared columns, by the LEAN byte reader or by the general one. */
function sweepColumns(read: 'bytes' | 'general'): number {
  let count = 0;
  for (const file of leanFiles())
    count +=
      (read === 'bytes' ? readLeanColumns(file, {}, MAX_COLUMN_TICKS) : readTickColumns(openTicks([file]), MAX_COLUMN_TICKS))?.count ?? 0;
  return count;
}

function parseOnly(): number {
  let count = 0;
  for (const _tick of leanTicks()) count += 1;
  return count;
}

export async function endToEnd(): Promise<Row[]> {
  if (!hasLeanData()) {
    process.stdout.write(`end-to-end: skipped, the real EUR/USD ticks are not at ${LEAN_DIR}\n`);
    return [{ suite: SUITE, id: 'e2e.skipped', name: 'skipped: no LEAN data', value: Number.NaN, unit: '-', note: LEAN_DIR }];
  }
  const files = leanFiles().length;
  // One verification pass: counts for the report (the run is deterministic, so every pass has them).
  const check = gridPass(leanTicks());
  const account = check.engine.account(ACCOUNT);
  const log = account?.log ?? [];
  const fillCount = log.filter((tx) => tx.type === 'ORDER_FILL').length;
  const lines = check.journal.lineCount(ACCOUNT);
  const ticksPerPass = check.ticks;
  process.stdout.write(
    `end-to-end: ${files} zips, ${fmtNum(ticksPerPass)} ticks, ${fmtNum(fillCount)} fills, ${fmtNum(lines)} journal lines per pass\n`,
  );
  const parsed = [...leanTicks()];

  const names = {
    whole: `whole pipeline: ${files} zips -> parse -> engine + resting grid -> MemoryJournal`,
    parse: `parse only: ${files} zips -> Tick objects`,
    columns: `sweep columns: ${files} zips -> shared columns, LEAN byte reader`,
    columnsGeneral: `sweep columns: ${files} zips -> Tick objects -> shared columns (the general reader)`,
    engine: 'engine only: pre-parsed array -> engine + resting grid -> MemoryJournal',
    quotes: 'quotes only: pre-parsed array -> engine, no orders',
  };
  // Slow ops: benchmark.js runs each sample twice (a pretest and the timed run), so keep few samples.
  const slow = await timeCases(
    SUITE,
    [
      { name: names.whole, fn: () => void gridPass(leanTicks()) },
      { name: names.engine, fn: () => void gridPass(parsed) },
    ],
    { maxTime: 2, minSamples: 3 },
  );
  const fast = await timeCases(
    `${SUITE} (split)`,
    [
      { name: names.parse, fn: () => void parseOnly() },
      { name: names.columns, fn: () => void sweepColumns('bytes') },
      { name: names.columnsGeneral, fn: () => void sweepColumns('general') },
      { name: names.quotes, fn: () => quotesOnly(parsed) },
    ],
    { maxTime: 2, minSamples: 3 },
  );

  const rows: Row[] = [];
  const add = (id: string, name: string, stats: ReturnType<typeof statsOf>, extra: string): void => {
    rows.push({ suite: SUITE, id, name, value: stats.hz * ticksPerPass, unit: 'ticks/s', note: rmeNote(stats, extra) });
  };
  add('e2e.whole', names.whole, statsOf(slow, names.whole), `best pass ${fmtNum(statsOf(slow, names.whole).best * ticksPerPass)} ticks/s`);
  rows.push({
    suite: SUITE,
    id: 'e2e.fills',
    name: 'fills per pass',
    value: fillCount,
    unit: 'fills',
    note: 'ORDER_FILL transactions (entries, TP and SL)',
  });
  rows.push({
    suite: SUITE,
    id: 'e2e.lines',
    name: 'journal lines per pass',
    value: lines,
    unit: 'lines',
    note: 'MemoryJournal serialized transactions',
  });
  add('e2e.parse', names.parse, statsOf(fast, names.parse), '');
  add('e2e.columns', names.columns, statsOf(fast, names.columns), 'what a sweep reads once (sweep-ticks.ts)');
  add('e2e.columnsGeneral', names.columnsGeneral, statsOf(fast, names.columnsGeneral), 'the same columns through readTicks');
  add('e2e.engine', names.engine, statsOf(slow, names.engine), '');
  add('e2e.quotes', names.quotes, statsOf(fast, names.quotes), 'the bare quote path on real ticks');
  return rows;
}

if (isMain(import.meta.url)) await runStandalone(endToEnd);
