import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { decompressedSize } from './byte-chunks.js';
import { readTicks } from './read-ticks.js';

const dir = mkdtempSync(join(tmpdir(), 'v20sim-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
}

const LINES = Array.from(
  { length: 3000 },
  (_, i) => `${1_704_153_600 + i},EUR_USD,1.1${String(i % 1000).padStart(3, '0')},1.1${String((i % 1000) + 1).padStart(3, '0')}`,
);
const TEXT = `time,instrument,bid,ask\n${LINES.join('\n')}\n`;

describe('progress of a tick file: decompressedSize and onBytes', () => {
  for (const [name, data] of [
    ['plain.csv', TEXT],
    ['packed.csv.gz', gzipSync(strToU8(TEXT))],
    ['packed.zip', zipSync({ 'inner.csv': strToU8(TEXT) })],
  ] as const) {
    it(`${name}: the blocks reported add up to the decompressed size, block by block as the ticks are read`, () => {
      const file = write(name, data);
      expect(decompressedSize(file)).toBe(TEXT.length);
      const reports: number[] = [];
      let ticks = 0;
      // A block is reported once its lines are parsed, so nothing before the first tick.
      for (const _tick of readTicks(file, { format: 'csv', onBytes: (bytes) => reports.push(bytes) })) {
        if (ticks === 0) expect(reports).toEqual([]);
        ticks += 1;
      }
      expect(ticks).toBe(LINES.length);
      expect(reports.reduce((a, b) => a + b, 0)).toBe(TEXT.length);
    });
  }
});
