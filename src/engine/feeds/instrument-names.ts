import { baseCurrency, DEFAULT_INSTRUMENTS, isInstrumentName, quoteCurrency } from '../../domain/instruments.js';
import { LineError } from './errors.js';

/**
 * Instrument names read from lines, one shared string per name. A name sliced from a large
 * block of text could otherwise keep the whole block alive for as long as the tick lives.
 */
export class InstrumentInterner {
  private readonly names = new Map<string, string>();
  private last = '';

  intern(text: string, start: number, end: number): string {
    // Most files repeat one instrument line after line: compare in place before allocating.
    if (end - start === this.last.length && this.last.length > 0 && text.startsWith(this.last, start)) return this.last;
    return this.internString(text.slice(start, end).trim());
  }

  internString(name: string): string {
    let known = this.names.get(name);
    if (known === undefined) {
      if (!isInstrumentName(name)) throw new LineError(`instrument must look like BASE_QUOTE (e.g. EUR_USD), got ${JSON.stringify(name)}`);
      known = Buffer.from(name, 'utf8').toString('utf8'); // a flat copy, independent of `text`
      this.names.set(known, known);
    }
    this.last = known;
    return known;
  }
}

const OTHER_CURRENCIES = ['XAU', 'XAG', 'HKD', 'SGD', 'CNH', 'MXN', 'ZAR', 'TRY', 'NOK', 'SEK', 'DKK', 'PLN', 'HUF', 'CZK', 'THB'];
const CURRENCIES: ReadonlySet<string> = new Set([
  ...DEFAULT_INSTRUMENTS.flatMap((spec) => [baseCurrency(spec.name), quoteCurrency(spec.name)]),
  ...OTHER_CURRENCIES,
]);

/**
 * The catalogue's own string for each instrument name: a tick built with it compares equal to a
 * strategy's or a config's literal by identity, without comparing characters on every quote.
 */
const CATALOGUE_NAMES: ReadonlyMap<string, string> = new Map(DEFAULT_INSTRUMENTS.map((spec) => [spec.name, spec.name]));

/**
 * `usdjpy` or `USDJPY` -> `USD_JPY`. Both halves must be known currency codes, so that an
 * unrelated six-letter word in a file or folder name is not taken for a pair.
 */
export function instrumentFromPairCode(code: string): string | undefined {
  const upper = code.toUpperCase();
  const base = upper.slice(0, 3),
    quote = upper.slice(3);
  if (upper.length !== 6 || !CURRENCIES.has(base) || !CURRENCIES.has(quote)) return undefined;
  const name = `${base}_${quote}`;
  return CATALOGUE_NAMES.get(name) ?? name;
}

/** An instrument given in options, checked once up front rather than on every tick. */
export function checkInstrumentOption(name: string): string {
  if (!isInstrumentName(name)) throw new Error(`instrument option must look like BASE_QUOTE (e.g. EUR_USD), got ${JSON.stringify(name)}`);
  return name;
}
