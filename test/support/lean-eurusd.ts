import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTicks } from '../../src/engine/feeds/index.js';
import type { Tick } from '../../src/domain/tick.js';

/** The shared data folder beside the repository (CI has it; it is never copied into the repo). */
export const SHARED_TICKS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data/ticks');
export const LEAN_DIR = path.join(SHARED_TICKS, 'lean-oanda-eurusd');

export function hasLeanData(): boolean {
  return existsSync(LEAN_DIR);
}

export function leanFiles(): string[] {
  return readdirSync(LEAN_DIR)
    .filter((f) => f.endsWith('_quote.zip'))
    .sort()
    .map((f) => path.join(LEAN_DIR, f));
}

/** All 532,903 OANDA EUR/USD ticks of May 2014, in file order. */
export function* leanTicks(): Generator<Tick> {
  for (const file of leanFiles()) yield* readTicks(file, { format: 'lean', instrument: 'EUR_USD' });
}
