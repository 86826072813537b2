/**
 * `npm run bench:backtest-memory`: the peak RSS of `v20sim backtest` over 1,000,000 and 10,000,000
 * generated ticks, so that one can see whether a backtest's memory grows with its length. The ticks
 * come from the seeded generator (generateTicks, seed 1, EUR_USD and USD_JPY, as the shipped
 * sample) written as csv to a temporary folder; each backtest runs the example strategies
 * (examples/strategies/ma-crossover.ts and grid.ts) and bench/strategies/busy-reader.ts (a trade
 * every 150 ticks or so: some 33,000 trades and 67,000 orders over 10,000,000 ticks, more than the
 * 50,000 ended records an account keeps in memory) through the CLI's backtest command in a child
 * process of its own, which reports its peak RSS (process.resourceUsage().maxRSS) when it is done.
 * busy-reader's transactions.ndjson is then reported as a served account's journal (`v20sim report`,
 * streamed: reportJournalToFiles) in a child of its own, whose peak RSS is measured the same way.
 * A benchmark, not a test: it prints figures and never fails on them.
 *
 * Options: --ticks 1000000,10000000 (the runs' lengths); --strategies ma-crossover,grid,busy-reader;
 * --data DIR (keep the generated tick files there and reuse them on the next run, e.g. to compare
 * two trees on the same files); --child ARGS... (one backtest in this process, used by the parent).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { reportJournalToFiles } from '../src/backtest/journal-report-files.js';
import { runBacktestCommand } from '../src/cli/backtest-command.js';
import { writeSampleCsv } from '../src/engine/feeds/index.js';
import { printMachine } from './lib.js';

const MB = 2 ** 20;
const SEED = 1;
const INSTRUMENTS = ['EUR_USD', 'USD_JPY'];
const STRATEGY_DIRS = ['../examples/strategies/', './strategies/'].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

/** An example strategy, else a benchmark one (busy-reader: thousands of trades, whose records page out). */
function strategyFile(name: string): string {
  const files = STRATEGY_DIRS.map((dir) => join(dir, `${name}.ts`));
  return files.find((file) => existsSync(file)) ?? (files[0] as string);
}

interface Reading {
  readonly strategy: string;
  readonly ticks: number;
  /** NaN when the run failed (out of memory under --old-space). */
  readonly peakRssMB: number;
  readonly seconds: number;
  readonly outputMB: number;
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** The child of a report: `v20sim report`'s streamed report of a journal, then its peak RSS (KiB) on the last line. */
function reportChild(journal: string, out: string): void {
  const started = process.hrtime.bigint();
  const report = reportJournalToFiles(journal, out, { source: journal });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(`report: ${report.transactionCount.toLocaleString('en-US')} transactions\n`);
  process.stdout.write(`${JSON.stringify({ code: 0, maxRssKiB: process.resourceUsage().maxRSS, seconds })}\n`);
}

/** The child: one backtest through the CLI command, then its peak RSS (KiB) on the last line. */
async function child(args: readonly string[]): Promise<void> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const started = process.hrtime.bigint();
  const code = await runBacktestCommand(args, { stdout: sink, stderr: process.stderr, isTTY: false });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`${JSON.stringify({ code, maxRssKiB: process.resourceUsage().maxRSS, seconds })}\n`);
  process.exitCode = code;
}

/** The tick file of `count` generated ticks in `dir`, written unless it is there already. */
function tickFile(dir: string, count: number): string {
  const file = join(dir, `generated-seed${SEED}-${count}.csv`);
  if (existsSync(file)) return file;
  const started = process.hrtime.bigint();
  const partial = `${file}.partial`;
  writeSampleCsv(partial, { seed: SEED, instruments: INSTRUMENTS, count });
  // Renamed once complete, so an interrupted run never leaves a short file to be reused.
  renameSync(partial, file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(`generated ${count.toLocaleString('en-US')} ticks in ${seconds.toFixed(0)} s: ${file}\n`);
  return file;
}

function folderMB(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir)) bytes += statSync(join(dir, name)).size;
  return bytes / MB;
}

function measure(name: string, ticks: number, file: string, out: string, oldSpace: string | undefined): Reading {
  const [strategy, interval] = name.split('@') as [string, string | undefined];
  const label = interval === undefined ? strategy : `${strategy}, equity every ${interval}`;
  const args = [
    '--child',
    '--strategy',
    strategyFile(strategy),
    '--ticks',
    file,
    '--out',
    out,
    ...(interval === undefined ? [] : ['--equity-interval', interval]),
  ];
  return inChild(args, name, label, ticks, out, oldSpace);
}

/** `v20sim report` of the journal a backtest wrote (its transactions.ndjson), into `out`. */
function measureReport(name: string, ticks: number, backtestOut: string, out: string, oldSpace: string | undefined): Reading {
  const args = ['--child-report', join(backtestOut, 'transactions.ndjson'), out];
  return inChild(args, `report of ${name}`, `v20sim report of ${name}'s transactions`, ticks, out, oldSpace);
}

function inChild(
  childArgs: readonly string[],
  name: string,
  label: string,
  ticks: number,
  out: string,
  oldSpace: string | undefined,
): Reading {
  const args = [
    ...(oldSpace === undefined ? [] : [`--max-old-space-size=${oldSpace}`]),
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    ...childArgs,
  ];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !last.startsWith('{')) {
    if (oldSpace !== undefined && /heap out of memory/i.test(run.stderr))
      return { strategy: label, ticks, peakRssMB: Number.NaN, seconds: Number.NaN, outputMB: Number.NaN };
    throw new Error(`${name} over ${ticks} ticks failed: ${run.stderr}`);
  }
  const result = JSON.parse(last) as { maxRssKiB: number; seconds: number };
  return {
    strategy: label,
    ticks,
    peakRssMB: (result.maxRssKiB * 1024) / MB,
    seconds: result.seconds,
    outputMB: folderMB(out),
  };
}

function mb(value: number): string {
  return Number.isNaN(value) ? 'out of memory' : value.toFixed(0);
}

async function main(): Promise<void> {
  const reportAt = process.argv.indexOf('--child-report');
  if (reportAt !== -1) return reportChild(process.argv[reportAt + 1] as string, process.argv[reportAt + 2] as string);
  const childAt = process.argv.indexOf('--child');
  if (childAt !== -1) return child(process.argv.slice(childAt + 1));
  const counts = (arg('ticks') ?? '1000000,10000000').split(',').map(Number);
  const strategies = (arg('strategies') ?? 'ma-crossover,grid,ma-crossover@1s,busy-reader').split(',');
  const keep = arg('data');
  const oldSpace = arg('old-space');
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'v20sim-backtest-memory-'));
  mkdirSync(dataDir, { recursive: true });
  const outRoot = mkdtempSync(join(tmpdir(), 'v20sim-backtest-memory-out-'));
  printMachine();
  try {
    const readings: Reading[] = [];
    for (const count of counts) {
      const file = tickFile(dataDir, count);
      for (const strategy of strategies) {
        const out = join(outRoot, `${strategy.replace('@', '-')}-${count}`);
        const reading = measure(strategy, count, file, out, oldSpace);
        readings.push(reading);
        process.stderr.write(`${reading.strategy}, ${count.toLocaleString('en-US')} ticks: peak RSS ${mb(reading.peakRssMB)} MB\n`);
        // The journal of the strategy that trades most, reported as a served account's would be.
        if (strategy !== 'busy-reader' || Number.isNaN(reading.peakRssMB)) continue;
        const report = measureReport(strategy, count, out, `${out}-report`, oldSpace);
        readings.push(report);
        process.stderr.write(`${report.strategy}, ${count.toLocaleString('en-US')} ticks: peak RSS ${mb(report.peakRssMB)} MB\n`);
      }
    }
    if (oldSpace !== undefined) console.log(`children run with --max-old-space-size=${oldSpace}`);
    console.log('\n| strategy | ticks | peak RSS MB | outputs MB | seconds |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of readings)
      console.log(
        `| ${r.strategy} | ${r.ticks.toLocaleString('en-US')} | ${mb(r.peakRssMB)} | ${Number.isNaN(r.outputMB) ? '-' : r.outputMB.toFixed(1)} | ${Number.isNaN(r.seconds) ? '-' : r.seconds.toFixed(1)} |`,
      );
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
    if (keep === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
