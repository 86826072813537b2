import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Tick } from '../domain/tick.js';
import { mergeByTime, readTicks, ticksInWindow, type FeedFormat, type TickWindow } from '../engine/feeds/index.js';
import { checkDefinition } from './params.js';
import type { TickSourceInfo } from './runner.js';
import type { StrategyDefinition } from './strategy.js';
import { importModule } from './strategy-module.js';

/** The sample tick file shipped with the package: four days of seeded EUR_USD and USD_JPY quotes. */
export const SAMPLE_TICKS_FILE = fileURLToPath(new URL('../../examples/data/sample-eurusd-usdjpy.csv.gz', import.meta.url));

function looksLikeDefinition(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { create?: unknown }).create === 'function';
}

/**
 * Loads a strategy module (.ts, .mts, .js, .mjs; TypeScript needs no build step) and checks its
 * default export. A CommonJS-compiled module's `exports.default` is found as well.
 */
export async function loadStrategy(file: string): Promise<StrategyDefinition> {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new Error(`strategy file not found: ${file}`);
  const mod = (await importModule(pathToFileURL(abs).href)) as { default?: unknown };
  let candidate: unknown = mod.default ?? mod;
  for (let depth = 0; depth < 2 && !looksLikeDefinition(candidate); depth += 1) {
    const inner = (candidate as { default?: unknown } | null | undefined)?.default;
    if (inner === undefined) break;
    candidate = inner;
  }
  return checkDefinition(candidate, file);
}

export interface TickSourceOptions extends TickWindow {
  /** For every file; detected per file when absent. */
  readonly format?: FeedFormat;
  /** For formats whose lines do not name the instrument. */
  readonly instrument?: string;
  /** Progress: the bytes of each block of tick text once parsed (see FeedOptions.onBytes). */
  readonly onBytes?: (bytes: number) => void;
}

/**
 * The ticks of several files merged by time, in mergeByTime's order (equal times: file order, then
 * the order of the files), within the window `from` (inclusive) to `to` (exclusive) when given:
 * each file stops being read at its first tick past the window.
 */
export function openTicks(files: readonly string[], opts: TickSourceOptions = {}): Iterable<Tick> {
  if (files.length === 0) throw new Error('no tick files given');
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`tick file not found: ${file}`);
    if (!statSync(file).isFile()) throw new Error(`not a file: ${file}`);
  }
  const feedOptions = {
    inTimeOrder: true,
    ...(opts.format === undefined ? {} : { format: opts.format }),
    ...(opts.instrument === undefined ? {} : { instrument: opts.instrument }),
    ...(opts.onBytes === undefined ? {} : { onBytes: opts.onBytes }),
  };
  const window = { ...(opts.from === undefined ? {} : { from: opts.from }), ...(opts.to === undefined ? {} : { to: opts.to }) };
  const sources = files.map((file) => ticksInWindow(readTicks(file, feedOptions), window));
  return sources.length === 1 ? (sources[0] as Iterable<Tick>) : mergeByTime(sources);
}

const DIGEST_CHUNK = 1 << 20;

/** SHA-256 of a file's bytes, read in chunks. */
export function fileSha256(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(DIGEST_CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** What the report records of each tick file: its name (not its folder, so reports do not depend on where data lives) and digest. */
export function describeSources(files: readonly string[]): TickSourceInfo[] {
  return files.map((file) => ({ file: path.basename(file), sha256: fileSha256(file) }));
}
