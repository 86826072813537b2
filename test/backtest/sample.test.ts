import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_TICKS_FILE } from '../../src/backtest/index.js';
import { SAMPLE_FILE_NAME, makeSample } from '../../examples/data/make-sample.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

describe('the shipped sample tick file', () => {
  it('is what examples/data/make-sample.ts writes, byte for byte, and stays under 1 MB', () => {
    expect(path.basename(SAMPLE_TICKS_FILE)).toBe(SAMPLE_FILE_NAME);
    const shipped = readFileSync(SAMPLE_TICKS_FILE);
    expect(shipped.length).toBeLessThan(1_000_000);
    const again = path.join(tempDir(), SAMPLE_FILE_NAME);
    expect(makeSample(again)).toBe(67_671); // to the Friday close, 22:00 UTC: the generator quotes no closed hours
    expect(readFileSync(again).equals(shipped)).toBe(true);
  });
});
