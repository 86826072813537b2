import { baseCurrency, quoteCurrency } from './instruments.js';

/**
 * Converting an amount from one currency into another through the pairs that have a price.
 *
 * OANDA converts every P/L, financing and fee into the account's home currency (facts sheet §5.1
 * HomeConversionFactors, §10); a real v20 account always has every rate. A simulated account only
 * knows the instruments its feed quotes, so the rate is found through any chain of quoted pairs,
 * chosen deterministically: the pair that links the two currencies directly (either way round),
 * else the two legs through USD, else the shortest chain of quoted pairs, ties broken by
 * instrument name (a breadth-first search whose neighbours are visited in name order).
 */

/** OANDA Corporation's home-currency conversion fee (help.oanda.com, facts sheet §14): 0.5 %. */
export const DEFAULT_HOME_CONVERSION_FEE = '0.005';
/** The fee settings an account takes, as text: a decimal in [0, 0.1) ("0", "0.005", "0.0999"). */
export const HOME_CONVERSION_FEE_PATTERN = '^0(\\.0\\d*)?$';

/** The currency a chain of two legs goes through when no pair links two currencies directly. */
export const VIA_CURRENCY = 'USD';

/** One leg of a conversion: a quoted pair, read as base -> quote, or inverted (quote -> base). */
export interface ConversionLeg {
  readonly instrument: string;
  readonly inverse: boolean;
}

/** The quoted pairs a conversion may use. */
export interface QuotedPairs {
  /** Whether `instrument` has a price. */
  quoted(instrument: string): boolean;
  /** BASE_QUOTE for two currencies (callers keep the names to avoid building strings per call). */
  pairName(base: string, quote: string): string;
  /** Every instrument with a price, sorted by name. */
  quotedNames(): readonly string[];
}

const NO_LEGS: readonly ConversionLeg[] = Object.freeze([]);

/** The one leg converting `from` into `to` through a pair of exactly these two currencies, or null. */
function directLeg(from: string, to: string, pairs: QuotedPairs): ConversionLeg | null {
  const direct = pairs.pairName(from, to);
  if (pairs.quoted(direct)) return { instrument: direct, inverse: false };
  const inverse = pairs.pairName(to, from);
  if (pairs.quoted(inverse)) return { instrument: inverse, inverse: true };
  return null;
}

/** The legs converting `from` into `to`, in order; null when no chain of quoted pairs links them. */
export function conversionPath(from: string, to: string, pairs: QuotedPairs): readonly ConversionLeg[] | null {
  if (from === to) return NO_LEGS;
  const direct = directLeg(from, to, pairs);
  if (direct !== null) return [direct];
  if (from !== VIA_CURRENCY && to !== VIA_CURRENCY) {
    const first = directLeg(from, VIA_CURRENCY, pairs);
    const second = first === null ? null : directLeg(VIA_CURRENCY, to, pairs);
    if (first !== null && second !== null) return [first, second];
  }
  return shortestPath(from, to, pairs.quotedNames());
}

/** Breadth-first over the quoted pairs (in name order), so the first chain found is the shortest and the same every time. */
function shortestPath(from: string, to: string, names: readonly string[]): readonly ConversionLeg[] | null {
  const cameFrom = new Map<string, { previous: string; leg: ConversionLeg }>();
  const queue: string[] = [from];
  for (let head = 0; head < queue.length; head += 1) {
    const currency = queue[head] as string;
    for (const instrument of names) {
      const base = baseCurrency(instrument);
      const quote = quoteCurrency(instrument);
      const next = base === currency ? quote : quote === currency ? base : undefined;
      if (next === undefined || next === from || cameFrom.has(next)) continue;
      cameFrom.set(next, { previous: currency, leg: { instrument, inverse: base !== currency } });
      if (next === to) return legsTo(to, cameFrom);
      queue.push(next);
    }
  }
  return null;
}

function legsTo(to: string, cameFrom: ReadonlyMap<string, { previous: string; leg: ConversionLeg }>): ConversionLeg[] {
  const legs: ConversionLeg[] = [];
  for (let step = cameFrom.get(to); step !== undefined; step = cameFrom.get(step.previous)) legs.push(step.leg);
  return legs.reverse();
}
