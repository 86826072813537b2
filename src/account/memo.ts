import { DecimalMemo, type Decimal } from '../domain/decimal.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import { fractionDigits, parseScaled } from '../domain/scaled-int.js';
import type { FillPrice, HomeConversionFactors } from '../domain/transactions.js';

/** A margin rate or a conversion fee as numerator / 10^decimals, for the integer arithmetic of fills and factors. */
export interface RateParts {
  readonly numerator: number;
  readonly decimals: number;
}

/** The quote a fill took, as v20 prints it, with the slot values it was printed from. */
export interface QuoteMemo {
  /** The price slot (by identity) the quote was read from. */
  readonly slot: object;
  readonly time: number;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid: number;
  readonly closeoutAsk: number;
  readonly precision: number;
  readonly price: FillPrice;
}

/** A conversion factor as printed: with the fee for gains and for losses, and at mid. */
export interface FactorTexts {
  readonly gain: string;
  readonly loss: string;
  readonly mid: string;
}

/** The last HomeConversionFactors of a fill (account/home-currency.ts), with the texts it was printed from. */
export interface HomeFactorsMemo {
  readonly quote: FactorTexts;
  readonly base: FactorTexts;
  readonly factors: HomeConversionFactors;
}

/** Distinct margin-rate strings kept parsed (instrument and configured rates: a handful). */
const RATES_MAX = 1024;
/** Currencies kept per side of a pair name (an account sees a few dozen at most). */
const PAIRS_MAX = 1024;

/**
 * One account's memos of values it recomputes on every fill: parsed margin rates, pair names, the
 * last printed quote and conversion factors. Pure caches: every entry is a function of its key,
 * so dropping them changes no output. They live with the account, never in a module, so two
 * accounts or two engines in one process share nothing.
 */
export class AccountMemo {
  /** Decimals of unit counts and prices the account reads back from its transactions. */
  readonly decimals = new DecimalMemo();
  private readonly parts = new Map<string, RateParts | null>();
  private readonly rateDecimals = new Map<string, Decimal>();
  private readonly rateFloats = new Map<string, number>();
  private readonly pairs = new Map<string, Map<string, string>>();
  /** Consecutive fills at an unchanged quote share its printed object (transactions never change). */
  lastQuote: QuoteMemo | undefined = undefined;
  lastHomeFactors: HomeFactorsMemo | undefined = undefined;
  /**
   * The account's cache of summary and position views (a ViewCache, account/view-cache.ts), made on
   * first use; typed there so that this file needs none of the views.
   */
  views: object | undefined = undefined;
  /** The last conversion factor texts of a direct pair's quote, at a conversion fee. */
  lastFactor: { slot: object; sum: number; fee: string; texts: FactorTexts } | undefined = undefined;
  private readonly fees = new Map<string, { gain: Decimal; loss: Decimal }>();
  private batchMicros = Number.NaN;
  private batchText = '';

  /** The RFC 3339 text of a batch's time: the batches of one quote (one per order it crosses) share it. */
  batchTime(now: Micros): string {
    if (now !== this.batchMicros) {
      this.batchText = formatRfc3339(now);
      this.batchMicros = now;
    }
    return this.batchText;
  }

  /** The RFC 3339 text of `t`: the current batch's when `t` is its time (a fill at the quote of that moment), else printed afresh. */
  timeText(t: Micros): string {
    return t === this.batchMicros ? this.batchText : formatRfc3339(t);
  }

  /** A margin rate's or a conversion fee's text as numerator / 10^decimals; null when not a non-negative decimal of at most 15 decimals. */
  partsOf(text: string): RateParts | null {
    return remember(this.parts, text, parseParts, RATES_MAX);
  }

  rateDecimalOf(text: string, parse: (text: string) => Decimal): Decimal {
    return remember(this.rateDecimals, text, parse, RATES_MAX);
  }

  /** The gain and loss multipliers (1 - f, 1 + f) of a conversion fee's text. */
  feeMultipliersOf(text: string, parse: (text: string) => { gain: Decimal; loss: Decimal }): { gain: Decimal; loss: Decimal } {
    return remember(this.fees, text, parse, RATES_MAX);
  }

  rateFloatOf(text: string): number {
    return remember(this.rateFloats, text, Number, RATES_MAX);
  }

  /** BASE_QUOTE, built once per pair of currencies (no new string to hash on every lookup). */
  pairName(base: string, quote: string): string {
    let byQuote = this.pairs.get(base);
    if (byQuote === undefined) {
      if (this.pairs.size >= PAIRS_MAX) this.pairs.clear();
      byQuote = new Map();
      this.pairs.set(base, byQuote);
    }
    let name = byQuote.get(quote);
    if (name === undefined) {
      name = `${base}_${quote}`;
      if (byQuote.size >= PAIRS_MAX) byQuote.clear();
      byQuote.set(quote, name);
    }
    return name;
  }
}

function parseParts(text: string): RateParts | null {
  const decimals = fractionDigits(text);
  const numerator = decimals <= 15 ? parseScaled(text, decimals) : null;
  return numerator === null || numerator < 0 ? null : { numerator, decimals };
}

function remember<V>(map: Map<string, V>, key: string, make: (key: string) => V, max: number): V {
  let value = map.get(key);
  if (value === undefined && !map.has(key)) {
    value = make(key);
    if (map.size >= max) map.clear();
    map.set(key, value);
  }
  return value as V;
}
