import { Decimal } from '../domain/decimal.js';
import { conversionPath, type QuotedPairs } from '../domain/conversion.js';
import { baseCurrency, quoteCurrency } from '../domain/instruments.js';
import { divRoundHalfUp, formatScaled, pow10 } from '../domain/scaled-int.js';
import type { HomeConversionFactors } from '../domain/transactions.js';
import type { FactorTexts, RateParts } from './memo.js';
import type { AccountState, PriceSlot } from './state.js';

/**
 * The home-currency conversion and its fee. OANDA converts a gain into the home currency at
 * mid x (1 - f) and a loss at mid x (1 + f), f = 0.5 % for OANDA Corporation (help.oanda.com
 * "home currency conversion"; facts sheet §14; a live 2022 fill: mid 1.14512, gainBaseHome
 * 1.13939440, lossBaseHome 1.15084560, facts sheet §11). Position values and margin convert at mid
 * (HomeConversions.positionValue, OANDA's definitions). The home currency converts to itself at
 * 1, without a fee. f is the account's `homeConversionFee`.
 */

const ONE = new Decimal(1);

/** The gain and loss multipliers of a conversion fee: 1 - f and 1 + f. */
export interface FeeMultipliers {
  readonly gain: Decimal;
  readonly loss: Decimal;
}

/** A rate into the home currency: at mid, and with the fee for gains and for losses. */
export interface HomeRate {
  readonly mid: Decimal;
  readonly gain: Decimal;
  readonly loss: Decimal;
}

/** The home currency into itself. */
export const HOME_RATE: HomeRate = Object.freeze({ mid: ONE, gain: ONE, loss: ONE });

function multipliersOf(fee: string): FeeMultipliers {
  const f = new Decimal(fee);
  return { gain: ONE.minus(f), loss: ONE.plus(f) };
}

export function feeMultipliers(state: AccountState): FeeMultipliers {
  return state.memo.feeMultipliersOf(state.homeConversionFee, multipliersOf);
}

/** An amount converted into the home currency at `rate`: a gain at the gain rate, a loss at the loss rate. */
export function toHome(amount: Decimal, rate: HomeRate): Decimal {
  return amount.times(amount.isNegative() ? rate.loss : rate.gain);
}

/** What the fee took from converting `amount`: converted at mid minus converted with the fee (never negative). */
export function conversionCost(amount: Decimal, rate: HomeRate): Decimal {
  return amount.times(rate.mid).minus(toHome(amount, rate));
}

export function homeRateOf(state: AccountState, mid: Decimal): HomeRate {
  if (mid === ONE) return HOME_RATE;
  const m = feeMultipliers(state);
  return { mid, gain: mid.times(m.gain), loss: mid.times(m.loss) };
}

function midOf(slot: PriceSlot): Decimal {
  return new Decimal(slot.bid + slot.ask).dividedBy(2 * slot.scale);
}

/** The account's quoted pairs, as the conversion search sees them. */
function quotedPairs(state: AccountState): QuotedPairs {
  return {
    quoted: (instrument) => state.prices.get(instrument)?.known === true && state.instruments.has(instrument),
    pairName: (base, quote) => state.memo.pairName(base, quote),
    quotedNames: () => {
      const names: string[] = [];
      for (const [name, slot] of state.prices) if (slot.known && state.instruments.has(name)) names.push(name);
      return names.sort();
    },
  };
}

/**
 * The mid rate turning one unit of `currency` into the home currency, through the chain of quoted
 * pairs domain/conversion.ts chooses; null when no chain links them. The home currency is 1.
 */
export function midToHome(state: AccountState, currency: string): Decimal | null {
  const home = state.currency;
  if (currency === home) return ONE;
  // The common case first: one pair links the currency and home, no search and no allocation.
  const direct = state.prices.get(state.memo.pairName(currency, home));
  if (direct !== undefined && direct.known) return midOf(direct);
  const inverse = state.prices.get(state.memo.pairName(home, currency));
  if (inverse !== undefined && inverse.known) return ONE.dividedBy(midOf(inverse));
  const legs = conversionPath(currency, home, quotedPairs(state));
  if (legs === null) return null;
  let rate = ONE;
  for (const leg of legs) {
    const mid = midOf(state.prices.get(leg.instrument) as PriceSlot);
    rate = leg.inverse ? rate.dividedBy(mid) : rate.times(mid);
  }
  return rate;
}

/** The rate of `currency` into home with the account's fee; null when no chain of quoted pairs links them. */
export function homeRate(state: AccountState, currency: string): HomeRate | null {
  if (currency === state.currency) return HOME_RATE;
  const mid = midToHome(state, currency);
  return mid === null ? null : homeRateOf(state, mid);
}

/** A factor as fills and prices print it: 8 decimals, "1" for the home currency. */
export function factorText(rate: Decimal): string {
  return rate === ONE ? '1' : rate.toFixed(8);
}

const HOME_TEXTS: FactorTexts = Object.freeze({ gain: '1', loss: '1', mid: '1' });
/**
 * The factor of the home currency into itself, one frozen object for every fill: the quote side
 * of every USD-quoted fill of a USD account, which would otherwise be two new objects per quote
 * (and two more to freeze for a strategy).
 */
const HOME_FACTOR: { readonly factor: string } = Object.freeze({ factor: HOME_TEXTS.gain });

/** The factor object of one of `texts`' factors: HOME_FACTOR for the home currency's own. */
function factorOf(texts: FactorTexts, factor: string): { factor: string } {
  return texts === HOME_TEXTS ? HOME_FACTOR : { factor };
}

/** Printed factors have 8 decimals (factorText). */
const FACTOR_DECIMALS = 8;

/**
 * The factor texts of a direct pair's quote in safe integers: with sum = bid + ask on the grid of
 * 10^-p and the fee f = F / 10^q, mid x (1 -+ f) x 10^8 = sum x (10^q -+ F) x 10^(8-p-q) / 2 exactly,
 * so one half-up division prints what decimal.js prints (home-currency.prop.test.ts). Null when
 * the grid and the fee are too fine for 8 decimals or a product is not a safe integer: the caller
 * takes the decimal.js route.
 */
export function directFactorTexts(sum: number, scale: number, fee: RateParts): FactorTexts | null {
  const p = Math.round(Math.log10(scale));
  const shift = FACTOR_DECIMALS - p - fee.decimals;
  if (pow10(p) !== scale || shift < 0 || !Number.isSafeInteger(sum) || sum <= 0) return null;
  const unit = pow10(fee.decimals);
  const k = pow10(shift);
  const gain = sum * (unit - fee.numerator) * k;
  const loss = sum * (unit + fee.numerator) * k;
  const mid = sum * unit * k;
  if (!Number.isSafeInteger(loss) || !Number.isSafeInteger(mid) || gain < 0) return null;
  return new DirectFactorTexts(
    formatScaled(divRoundHalfUp(gain, 2), FACTOR_DECIMALS),
    formatScaled(divRoundHalfUp(loss, 2), FACTOR_DECIMALS),
    mid,
  );
}

/**
 * A direct pair's factor texts, the mid printed when read: fills print only the gain and loss
 * factors (one set per new quote), the mid is read only by GET pricing's homeConversions.
 */
class DirectFactorTexts implements FactorTexts {
  private midText: string | undefined = undefined;

  constructor(
    readonly gain: string,
    readonly loss: string,
    /** mid x 10^8 x 2, as directFactorTexts computed it. */
    private readonly midTwice: number,
  ) {}

  get mid(): string {
    return (this.midText ??= formatScaled(divRoundHalfUp(this.midTwice, 2), FACTOR_DECIMALS));
  }
}

/** The printed gain, loss and mid factors of `currency` into home; null when it cannot be converted. */
export function factorTexts(state: AccountState, currency: string): FactorTexts | null {
  if (currency === state.currency) return HOME_TEXTS;
  const memo = state.memo;
  const last = memo.lastFactor;
  const direct = state.prices.get(memo.pairName(currency, state.currency));
  // Fills in a row convert at the same quote: keep the last texts of a direct pair.
  if (direct !== undefined && direct.known && last !== undefined && last.slot === direct && last.sum === direct.bid + direct.ask) {
    if (last.fee === state.homeConversionFee) return last.texts;
  }
  const fee = direct !== undefined && direct.known ? memo.partsOf(state.homeConversionFee) : null;
  let texts = fee === null || direct === undefined ? null : directFactorTexts(direct.bid + direct.ask, direct.scale, fee);
  if (texts === null) {
    const rate = homeRate(state, currency);
    if (rate === null) return null;
    texts = { gain: factorText(rate.gain), loss: factorText(rate.loss), mid: factorText(rate.mid) };
  }
  if (direct !== undefined && direct.known)
    memo.lastFactor = { slot: direct, sum: direct.bid + direct.ask, fee: state.homeConversionFee, texts };
  return texts;
}

/**
 * The four factors of a fill or a position's financing (HomeConversionFactors); consecutive
 * fills with the same factors share one object. Null when the quote currency cannot be converted.
 * The base factors are informational: when the quote currency converts, so does the base (through
 * the instrument itself), so they never stop a fill.
 */
export function homeConversionFactors(state: AccountState, instrument: string): HomeConversionFactors | null {
  const quote = factorTexts(state, quoteCurrency(instrument));
  if (quote === null) return null;
  const base = factorTexts(state, baseCurrency(instrument));
  if (base === null) return null;
  const memo = state.memo;
  const last = memo.lastHomeFactors;
  if (last !== undefined && sameTexts(last.quote, quote) && sameTexts(last.base, base)) return last.factors;
  const factors: HomeConversionFactors = {
    gainQuoteHome: factorOf(quote, quote.gain),
    lossQuoteHome: factorOf(quote, quote.loss),
    gainBaseHome: factorOf(base, base.gain),
    lossBaseHome: factorOf(base, base.loss),
  };
  memo.lastHomeFactors = { quote, base, factors };
  return factors;
}

function sameTexts(a: FactorTexts, b: FactorTexts): boolean {
  return a === b || (a.gain === b.gain && a.loss === b.loss);
}

/**
 * Whether a fill of `instrument` can be valued in the home currency: its quote currency converts
 * through some chain of quoted pairs. The base factors are informational and never needed (with a
 * price of the instrument the base converts whenever the quote does). When this is false no v20
 * rate exists for the order: a MARKET order is refused with INSTRUMENT_PRICE_UNKNOWN (the reason
 * v20 gives for a price it does not know; src/domain/reject-reasons.ts words it for the
 * conversion) and a resting order keeps resting until a conversion exists: a real v20 account
 * always has its rates, so cancelling the order for good would be an artefact of the feed.
 */
export function canConvertToHome(state: AccountState, instrument: string): boolean {
  return midToHome(state, quoteCurrency(instrument)) !== null;
}
