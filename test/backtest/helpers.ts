import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Strategy, StrategyDefinition, StrategyParams } from '../../src/backtest/index.js';
import type { Tick } from '../../src/domain/tick.js';

export const T0 = Date.UTC(2024, 0, 2, 10) * 1000;

/** EUR_USD quotes one second apart from T0 (or the given instrument and spacing). */
export function quotes(prices: ReadonlyArray<readonly [number, number]>, instrument = 'EUR_USD', start = T0, step = 1_000_000): Tick[] {
  return prices.map(([bid, ask], i) => ({ instrument, time: start + i * step, bid, ask }));
}

/** A definition around fixed hooks (one run's state lives in the test). */
export function strategyOf<P extends StrategyParams>(hooks: Strategy<P>, params: P = {} as P, name = 'test'): StrategyDefinition<P> {
  return { name, params, create: () => hooks };
}

const made: string[] = [];

/** A fresh folder under the system's temporary folder; removeTempDirs() deletes them all. */
export function tempDir(prefix = 'v20sim-backtest-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A writable stream that keeps what was written. */
export function memoryStream(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}
