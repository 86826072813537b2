/**
 * Shared plumbing of the benchmark suites: result rows, a thin benny wrapper, machine info,
 * number formatting, a garbage-collector handle and the standalone entry point of each suite.
 * Benchmarks print; they never assert timings.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as b from 'benny';

/** One figure of one suite. `value` is NaN when the case could not run. */
export interface Row {
  readonly suite: string;
  /** Stable key for machines (results JSON, goal checks). */
  readonly id: string;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly note?: string;
}

export type SuiteFn = () => Promise<Row[]>;

/** A timed case: one call of `fn` is one benny op (a batch of ticks, fills or a whole pass). */
export interface TimedCase {
  readonly name: string;
  readonly fn: () => void;
}

export interface CaseStats {
  /** Ops per second from benny's mean sample time (unrounded). */
  readonly hz: number;
  /** Ops per second of the fastest sample: the figure least disturbed by other processes. */
  readonly best: number;
  /** Relative margin of error, percent. */
  readonly rme: number;
  readonly samples: number;
}

export interface TimingOptions {
  /** Seconds per case once minSamples are in (benchmark.js keeps sampling until both hold). */
  readonly maxTime: number;
  readonly minSamples: number;
}

export const QUICK: TimingOptions = { maxTime: 2, minSamples: 5 };

/**
 * Runs the cases one after another with benny (synchronously, no timers) and returns their
 * statistics by name. Note that benny calls each case once while preparing it (a warm-up run).
 */
export async function timeCases(
  suiteName: string,
  cases: readonly TimedCase[],
  options: TimingOptions = QUICK,
): Promise<Map<string, CaseStats>> {
  const stats = new Map<string, CaseStats>();
  await b.suite(
    suiteName,
    b.configure({ cases: { maxTime: options.maxTime, minSamples: options.minSamples }, minDisplayPrecision: 2 }),
    ...cases.map((c) => b.add(c.name, c.fn)),
    b.cycle((result) => {
      // The summary rounds ops/s; the mean sample time is exact.
      const hz = result.details.mean > 0 ? 1 / result.details.mean : Number.NaN;
      const best = result.details.min > 0 ? 1 / result.details.min : Number.NaN;
      stats.set(result.name, { hz, best, rme: result.margin, samples: result.samples });
      process.stdout.write(
        `  ${result.name}: ${fmtNum(hz, hz < 100 ? 2 : 0)} ops/s ±${result.margin.toFixed(2)}% (${result.samples} samples)\n`,
      );
      return undefined; // nothing for log-update: plain lines survive pipes and CI logs
    }),
    b.complete(() => undefined),
  );
  return stats;
}

/** Stats of a case that timeCases ran (an Error means a bug in the suite, not a slow engine). */
export function statsOf(stats: ReadonlyMap<string, CaseStats>, name: string): CaseStats {
  const s = stats.get(name);
  if (s === undefined) throw new Error(`benchmark case ${JSON.stringify(name)} produced no result`);
  return s;
}

export function rmeNote(s: CaseStats, extra = ''): string {
  return `${fmtNum(s.hz, s.hz < 100 ? 2 : 0)} ops/s ±${s.rme.toFixed(1)}% n=${s.samples}${extra === '' ? '' : `; ${extra}`}`;
}

/** 1234567.8 -> "1,234,568" (host-independent, unlike toLocaleString). */
export function fmtNum(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return String(value);
  const [int, frac] = Math.abs(value).toFixed(decimals).split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

export function fmtValue(row: Row): string {
  if (Number.isNaN(row.value)) return 'n/a';
  if (row.unit === 'x' || row.unit === 'heap MB') return fmtNum(row.value, 2);
  return fmtNum(row.value, 0);
}

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly totalMemoryGB: number;
  readonly node: string;
  readonly v8: string;
  readonly platform: string;
  readonly exposeGc: boolean;
  /** 1, 5 and 15 minute load averages when the run started: other processes skew timings. */
  readonly loadavg: readonly number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    totalMemoryGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    exposeGc: typeof (globalThis as { gc?: unknown }).gc === 'function',
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function printMachine(info: MachineInfo = machineInfo()): void {
  process.stdout.write(
    `machine: ${info.cpu}, ${info.cores} cores, ${info.totalMemoryGB} GB RAM, ${info.platform}\n` +
      `node ${info.node} (V8 ${info.v8}), --expose-gc: ${info.exposeGc ? 'yes' : 'no (memory suite falls back to v8.setFlagsFromString)'}\n` +
      `load average at start: ${info.loadavg.join(' ')} (other processes on the machine disturb timings)\n` +
      `date: ${new Date().toISOString()}\n\n`,
  );
}

/** A full collection. Uses global.gc (node --expose-gc) or, failing that, enables it at runtime. */
export function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Median, min and max of some figures (the median of an even count is the mean of the middle two). */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
  return { median, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

export function fmtSpread(s: Spread, decimals = 0): string {
  return `${fmtNum(s.median, decimals)} (${fmtNum(s.min, decimals)}-${fmtNum(s.max, decimals)})`;
}

/** Seconds since `start` (a process.hrtime.bigint() reading). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs `v20sim ARGS` (bin/v20sim.js, which runs the build when it is current) from the repository
 * in a process of its own: seconds from spawn to exit and what it wrote on stderr. Rejects on a
 * non-zero exit.
 */
export function timeV20sim(args: readonly string[]): Promise<{ seconds: number; stderr: string }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/v20sim.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = secondsSince(start);
      if (code === 0) resolve({ seconds, stderr });
      else reject(new Error(`v20sim ${args.join(' ')}: exit ${code}: ${stderr.slice(-500)}`));
    });
  });
}

export function printTable(rows: readonly Row[]): void {
  const header = ['suite', 'case', 'value', 'unit', 'note'];
  const body = rows.map((r) => [r.suite, r.name, fmtValue(r), r.unit, r.note ?? '']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => (line[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 2 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number))).join(' | ')} |`;
  const out = [
    line(header),
    `|${widths.map((w, i) => (i === 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...body.map(line),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** True when the module at `url` is the script node was started with. */
export function isMain(url: string): boolean {
  const script = process.argv[1];
  return script !== undefined && path.resolve(script) === fileURLToPath(url);
}

/** Lets a suite file run on its own: `npx tsx bench/fills.bench.ts`. */
export async function runStandalone(suite: SuiteFn): Promise<void> {
  printMachine();
  const rows = await suite();
  process.stdout.write('\n');
  printTable(rows);
}
