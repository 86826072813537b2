import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTicks, type TickSourceOptions } from './tick-files.js';
import { columnTicks, readLeanColumns, readTickColumns, type TickColumns } from './tick-columns.js';
import { readSweepFile } from './sweep-ticks.js';

/**
 * The LEAN reader straight from bytes (lean-quotes.ts) against the general one: whatever it takes
 * it reads to the very same columns, and what it does not take the sweep still reads (or refuses)
 * exactly as the general reader does.
 */

let dir = '';
let files = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-lean-columns-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIDNIGHT = Date.UTC(2014, 4, 1) * 1000;

/** The file in one of the forms LEAN data comes in (a zip as LEAN ships it, gzip, plain). */
function write(text: string, form: 'zip' | 'gz' | 'csv'): string {
  // A folder each: LEAN names its files by their date alone.
  const at = join(dir, String((files += 1)));
  mkdirSync(at);
  const data = strToU8(text);
  if (form === 'zip') {
    const file = join(at, '20140501_quote.zip');
    writeFileSync(file, zipSync({ '20140501_eurusd_tick_quote.csv': data }));
    return file;
  }
  const file = join(at, `20140501_eurusd_tick_quote.csv${form === 'gz' ? '.gz' : ''}`);
  writeFileSync(file, form === 'gz' ? gzipSync(data) : data);
  return file;
}

const price = fc
  .tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 5 }))
  .map(([whole, fraction, places]) => (places === 0 ? String(whole) : `${whole}.${String(fraction).padStart(5, '0').slice(0, places)}`));

/** A regular line's fields: milliseconds since midnight (whole or fractional), bid, ask. */
const regular = fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.boolean(), price, price);

/** Lines the byte reader leaves to the general one, or the general one refuses. */
const irregular = fc.constantFrom(
  '',
  '\r',
  '+123,1.1,1.2',
  '123,1e-3,1.2',
  '123, 1.1,1.2',
  '123,1.1,1.2 ',
  '123,1.1',
  '123,1.1,100000,1.2,250000',
  '123,1.1,0,1.2,0',
  '123,0,1.2',
  '123,0.00,1.2',
  '86400000,1.1,1.2',
  '1,1.1,1.2',
  '123,1.1.1,1.2',
  '123,1234567890123456,1.2',
  '123,,1.2',
  'abc',
  '\ufeff123,1.1,1.2',
);

type Line = { kind: 'regular'; step: number; fractional: boolean; bid: string; ask: string } | { kind: 'irregular'; text: string };

const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 12, arbitrary: regular.map(([step, fractional, bid, ask]): Line => ({ kind: 'regular', step, fractional, bid, ask })) },
  { weight: 1, arbitrary: irregular.map((text): Line => ({ kind: 'irregular', text })) },
);

function fileText(lines: readonly Line[], crlf: boolean, finalNewline: boolean): string {
  let millis = 0;
  const texts = lines.map((l) => {
    if (l.kind === 'irregular') return l.text;
    millis += l.step;
    return `${l.fractional ? `${millis}.25` : millis},${l.bid},${l.ask}`;
  });
  const eol = crlf ? '\r\n' : '\n';
  return texts.join(eol) + (finalNewline && texts.length > 0 ? eol : '');
}

/** The columns as ticks, or the error message: what a run would see. */
function outcome(read: () => TickColumns | undefined): unknown {
  try {
    const columns = read();
    return columns === undefined ? undefined : { instruments: columns.instruments, ticks: [...columnTicks(columns)] };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const window = fc.record(
  { from: fc.integer({ min: 0, max: 200_000_000 }), to: fc.integer({ min: 0, max: 300_000_000 }) },
  { requiredKeys: [] },
);

describe('LEAN files read straight from bytes into columns', () => {
  it('give the general reader’s ticks whenever taken, and the sweep reads any file as the general reader does (property)', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 60 }),
        fc.constantFrom('zip' as const, 'gz' as const, 'csv' as const),
        fc.boolean(),
        fc.boolean(),
        window,
        fc.constantFrom(5, 1_000),
        (lines, form, crlf, finalNewline, w, maxTicks) => {
          const file = write(fileText(lines, crlf, finalNewline), form);
          const opts: TickSourceOptions = {
            ...(w.from === undefined ? {} : { from: MIDNIGHT + w.from }),
            ...(w.to === undefined ? {} : { to: MIDNIGHT + w.to }),
          };
          const general = outcome(() => readTickColumns(openTicks([file], opts), maxTicks));
          const fast = outcome(() => readLeanColumns(file, opts, maxTicks));
          if (fast !== undefined) expect(fast).toEqual(general);
          expect(outcome(() => readSweepFile({ tickFiles: [file], ...opts }, 0))).toEqual(
            outcome(() => readTickColumns(openTicks([file], opts), Number.MAX_SAFE_INTEGER)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('take every file of plain lines in time order, whatever its form and line ends (property)', () => {
    fc.assert(
      fc.property(
        fc.array(regular, { minLength: 1, maxLength: 200 }),
        fc.constantFrom('zip' as const, 'gz' as const, 'csv' as const),
        fc.boolean(),
        fc.boolean(),
        (fields, form, crlf, finalNewline) => {
          const lines = fields.map(([step, fractional, bid, ask]): Line => ({ kind: 'regular', step, fractional, bid, ask }));
          const file = write(fileText(lines, crlf, finalNewline), form);
          const fast = readLeanColumns(file, {}, Number.MAX_SAFE_INTEGER);
          expect(fast?.count).toBe(lines.length);
          expect(outcome(() => fast)).toEqual(outcome(() => readTickColumns(openTicks([file]), Number.MAX_SAFE_INTEGER)));
          expect(fast?.time.buffer).toBeInstanceOf(SharedArrayBuffer);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('leave other formats, and names without a LEAN date, to the general reader', () => {
    const csv = join(dir, 'quotes.csv');
    writeFileSync(csv, '2014-05-01T00:00:00Z,EUR_USD,1.1,1.2\n');
    expect(readLeanColumns(csv, {}, 10)).toBeUndefined();
    const undated = join(dir, 'quotes_tick_quote.csv');
    writeFileSync(undated, '123,1.1,1.2\n');
    expect(readLeanColumns(undated, { format: 'lean' }, 10)).toBeUndefined();
    expect(readLeanColumns(join(dir, 'missing-20140501_quote.zip'), {}, 10)).toBeUndefined();
    const lean = write('123,1.1,1.2\n', 'zip');
    expect(readLeanColumns(lean, { instrument: 'not an instrument' }, 10)).toBeUndefined();
    expect(readLeanColumns(lean, { instrument: 'USD_JPY' }, 10)?.instruments).toEqual(['USD_JPY']);
  });
});
