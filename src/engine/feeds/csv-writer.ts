import { closeSync, openSync, writeSync } from 'node:fs';
import { Gzip } from 'fflate';
import { buildCatalogue, type InstrumentSpec } from '../../domain/instruments.js';
import { formatPriceInt, toPriceInt } from '../../domain/price.js';
import type { Tick } from '../../domain/tick.js';
import { formatRfc3339 } from '../../domain/time.js';
import { type GeneratorOptions, generateTicks } from './generator.js';

/**
 * Writes ticks in the csv format that readTicks reads back: a header, RFC3339 times and prices
 * with the instrument's displayPrecision, formatted from integers so no float or locale
 * formatting is involved. A name ending in `.gz` is gzip-compressed (with a zero mtime, so the
 * same ticks give the same bytes).
 */
export interface CsvWriteOptions {
  /** Adds closeoutBid,closeoutAsk columns (bid/ask when a tick has none). */
  readonly closeouts?: boolean;
  readonly catalogue?: ReadonlyMap<string, InstrumentSpec>;
}

const LINES_PER_WRITE = 8192;

function priceFormatter(catalogue: ReadonlyMap<string, InstrumentSpec>): (instrument: string, price: number) => string {
  return (instrument, price) => {
    const precision = catalogue.get(instrument)?.displayPrecision;
    // Unknown instruments: the shortest decimal that reads back as the same number.
    return precision === undefined ? String(price) : formatPriceInt(toPriceInt(price, 10 ** precision), precision);
  };
}

function openSink(file: string): { write(text: string): void; close(): void } {
  const fd = openSync(file, 'w');
  const gzip = file.endsWith('.gz')
    ? new Gzip({ mtime: 0 }, (data) => {
        writeSync(fd, data);
      })
    : undefined;
  return {
    write: (text) => {
      if (gzip === undefined) writeSync(fd, text);
      else gzip.push(Buffer.from(text, 'utf8'), false);
    },
    close: () => {
      try {
        gzip?.push(new Uint8Array(0), true);
      } finally {
        closeSync(fd);
      }
    },
  };
}

/** Returns the number of ticks written. */
export function writeTicksCsv(file: string, ticks: Iterable<Tick>, opts: CsvWriteOptions = {}): number {
  const price = priceFormatter(opts.catalogue ?? buildCatalogue());
  const closeouts = opts.closeouts === true;
  const sink = openSink(file);
  let written = 0;
  try {
    let lines: string[] = [closeouts ? 'time,instrument,bid,ask,closeoutBid,closeoutAsk' : 'time,instrument,bid,ask'];
    for (const tick of ticks) {
      let line = `${formatRfc3339(tick.time)},${tick.instrument},${price(tick.instrument, tick.bid)},${price(tick.instrument, tick.ask)}`;
      if (closeouts)
        line += `,${price(tick.instrument, tick.closeoutBid ?? tick.bid)},${price(tick.instrument, tick.closeoutAsk ?? tick.ask)}`;
      lines.push(line);
      written += 1;
      if (lines.length >= LINES_PER_WRITE) {
        sink.write(`${lines.join('\n')}\n`);
        lines = [];
      }
    }
    if (lines.length > 0) sink.write(`${lines.join('\n')}\n`);
  } finally {
    sink.close();
  }
  return written;
}

/** Generated ticks (see generateTicks) written as csv: how the package's sample file is made. */
export function writeSampleCsv(file: string, opts: GeneratorOptions, writeOpts: CsvWriteOptions = {}): number {
  const catalogue = writeOpts.catalogue ?? opts.catalogue;
  const withCatalogue: CsvWriteOptions = catalogue === undefined ? writeOpts : { ...writeOpts, catalogue };
  return writeTicksCsv(file, generateTicks(opts), withCatalogue);
}
