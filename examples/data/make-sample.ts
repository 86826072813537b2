/**
 * Regenerates the sample tick file that `v20sim backtest` uses when no --ticks are given:
 *
 *   npx tsx examples/data/make-sample.ts
 *
 * Four days (Tuesday 2 January 2024 to the Friday close, 22:00 UTC) of seeded EUR_USD and USD_JPY quotes from
 * the package's generator, written as gzipped csv. The generator, the csv writer and gzip (zero
 * mtime) are deterministic, so the file comes out the same byte for byte; a test checks it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GENERATOR_START, type GeneratorOptions, writeSampleCsv } from '../../src/engine/feeds/index.js';

const DAY = 86_400_000_000;

export const SAMPLE_FILE_NAME = 'sample-eurusd-usdjpy.csv.gz';

export const SAMPLE_OPTIONS: GeneratorOptions = {
  seed: 'v20sim-backtest-sample',
  instruments: ['EUR_USD', 'USD_JPY'],
  start: DEFAULT_GENERATOR_START,
  end: DEFAULT_GENERATOR_START + 4 * DAY,
  meanIntervalMicros: 5_000_000,
};

/** Writes the sample to `file`; returns the number of ticks. */
export function makeSample(file: string): number {
  return writeSampleCsv(file, SAMPLE_OPTIONS);
}

const here = path.dirname(fileURLToPath(import.meta.url));
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.join(here, SAMPLE_FILE_NAME);
  const ticks = makeSample(file);
  process.stdout.write(`${ticks} ticks written to ${path.relative(process.cwd(), file)}\n`);
}
