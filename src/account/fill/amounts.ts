import { Decimal, ZERO, formatAccountUnits, formatFixed, formatUnits } from '../../domain/decimal.js';
import { formatPriceInt, parsePriceInt, priceIntToDecimal, priceMidToDecimal } from '../../domain/price.js';
import { divRoundHalfUp, formatScaled, parseScaled, pow10, toAccountUnits } from '../../domain/scaled-int.js';
import { HOME_RATE, conversionCost, factorText, homeRateOf, toHome } from '../home-currency.js';
import { balanceOf, tradePriceDecimal, type AccountState } from '../state.js';
import type { FillPlan } from './plan.js';

/** The quote a fill takes, on the instrument's integer grid. */
export interface FillQuote {
  /** The fill price: the ask for buys, the bid for sells. */
  readonly fillInt: number;
  readonly bid: number;
  readonly ask: number;
  readonly precision: number;
}

/** The effective margin rate of the instrument, as text (for the integer route) and Decimal. */
export interface MarginRate {
  readonly text: string;
  readonly decimal: Decimal;
}

export interface ReductionAmounts {
  readonly units: string;
  readonly realizedPL: string;
  readonly halfSpreadCost: string;
  /** What the conversion fee took from the realized P/L, in home currency (home-currency.ts). */
  readonly plHomeConversionCost: string;
  /** All the conversion costs of the reduction (only the P/L's: financing and fees are zero in a fill). */
  readonly homeConversionCost: string;
}

export interface OpeningAmounts {
  readonly units: string;
  readonly halfSpreadCost: string;
  readonly initialMarginRequired: string;
}

/** Every amount a fill prints, as v20 prints it. */
export interface FillAmounts {
  readonly units: string;
  readonly requestedUnits: string;
  readonly price: string;
  readonly pl: string;
  readonly quotePL: string;
  readonly accountBalance: string;
  readonly halfSpreadCost: string;
  /** The quote-to-home conversion factors of gains and losses as printed ("1" in the home currency). */
  readonly gainQuoteFactor: string;
  readonly lossQuoteFactor: string;
  readonly plHomeConversionCost: string;
  readonly homeConversionCost: string;
  /** One per reduction of the plan, in its order. */
  readonly reductions: readonly ReductionAmounts[];
  readonly opening: OpeningAmounts | undefined;
}

const NONE: readonly ReductionAmounts[] = Object.freeze([]);

/**
 * How the conversion costs print. The 2022 capture (facts sheet §11, EUR_USD on a USD account)
 * shows plHomeConversionCost "0.00000" (the instrument's precision, like quotePL),
 * baseFinancingHomeConversionCost and homeConversionCost at 14 decimals (like baseFinancing) and
 * guaranteedExecutionFeeHomeConversionCost "0" (like quoteGuaranteedExecutionFee).
 */
export const COST_DECIMALS = 14;

/** "0" at 0..15 decimals: the costs of a fill in an instrument quoted in the home currency. */
const ZERO_TEXTS: readonly string[] = Object.freeze(Array.from({ length: 16 }, (_, i) => ZERO.toFixed(i)));

function zeroText(decimals: number): string {
  return ZERO_TEXTS[decimals] ?? ZERO.toFixed(decimals);
}

/**
 * The amounts of a planned fill. `quoteFactor` null means the instrument is quoted in the home
 * currency: then whole units are computed on safe integers, exactly as decimal.js would round
 * them (fill-routes.prop.test.ts checks both give the same text); anything else, or any product
 * that would leave the safe integers, goes through decimal.js.
 */
export function fillAmounts(
  state: AccountState,
  plan: FillPlan,
  quote: FillQuote,
  quoteFactor: Decimal | null,
  rate: MarginRate,
  requestedUnits: Decimal,
): FillAmounts {
  if (quoteFactor === null) {
    const whole = integerAmounts(state, plan, quote, rate);
    if (whole !== null) return whole;
  }
  return decimalAmounts(state, plan, quote, quoteFactor, rate, requestedUnits);
}

/** The decimal.js arithmetic: any units, any conversion factor (null: the quote currency is home). */
export function decimalAmounts(
  state: AccountState,
  plan: FillPlan,
  quote: FillQuote,
  quoteFactor: Decimal | null,
  rate: MarginRate,
  requestedUnits: Decimal,
): FillAmounts {
  const { fillInt, precision } = quote;
  const home = quoteFactor === null ? HOME_RATE : homeRateOf(state, quoteFactor);
  const sign = plan.isBuy ? 1 : -1;
  const priceStr = formatPriceInt(fillInt, precision);
  const price = priceIntToDecimal(fillInt, precision);
  // |fill − mid| from the integer quote: |2·fill − (bid + ask)| / (2·scale)
  const spreadPerUnit = priceMidToDecimal(Math.abs(2 * fillInt - (quote.bid + quote.ask)), precision).times(home.mid);
  let pl = ZERO;
  let quotePL = ZERO;
  let cost = ZERO;
  let reductions: ReductionAmounts[] | undefined;
  for (const r of plan.reductions) {
    const open = tradePriceDecimal(r.trade);
    const tradeQuotePL = (r.trade.currentUnits.isPositive() ? price.minus(open) : open.minus(price)).times(r.units);
    // Each trade's P/L converts by its own sign: a gain at the gain rate, a loss at the loss rate.
    const realized = new Decimal(formatAccountUnits(toHome(tradeQuotePL, home)));
    const tradeCost = conversionCost(tradeQuotePL, home);
    pl = pl.plus(realized);
    quotePL = quotePL.plus(tradeQuotePL);
    cost = cost.plus(tradeCost);
    (reductions ??= []).push({
      units: formatUnits(r.units.times(sign)),
      realizedPL: formatAccountUnits(realized),
      halfSpreadCost: formatAccountUnits(spreadPerUnit.times(r.units)),
      plHomeConversionCost: formatFixed(tradeCost, precision),
      homeConversionCost: formatFixed(tradeCost, COST_DECIMALS),
    });
  }
  const filled = plan.reduced.plus(plan.opening);
  let opening: OpeningAmounts | undefined;
  if (!plan.opening.isZero()) {
    const mid = priceMidToDecimal(quote.bid + quote.ask, precision);
    opening = {
      units: formatUnits(plan.opening.times(sign)),
      halfSpreadCost: formatAccountUnits(spreadPerUnit.times(plan.opening)),
      initialMarginRequired: formatAccountUnits(plan.opening.times(mid).times(home.mid).times(rate.decimal)),
    };
  }
  return {
    units: formatUnits(filled.times(sign)),
    requestedUnits: formatUnits(requestedUnits),
    price: priceStr,
    pl: reductions === undefined ? '0.0000' : formatAccountUnits(pl),
    quotePL: formatFixed(quotePL, precision),
    accountBalance: pl.isZero() ? state.balanceText : formatAccountUnits(balanceOf(state).plus(pl)),
    halfSpreadCost: formatAccountUnits(spreadPerUnit.times(filled)),
    gainQuoteFactor: factorText(home.gain),
    lossQuoteFactor: factorText(home.loss),
    plHomeConversionCost: formatFixed(cost, precision),
    homeConversionCost: formatFixed(cost, COST_DECIMALS),
    reductions: reductions ?? NONE,
    opening,
  };
}

/** u × num / den rounded to 4 decimals, where the value is u × num / (den × 10^decimals); NaN if unsafe. */
function scaledRound4(product: number, decimals: number, den: number): number {
  if (!Number.isSafeInteger(product)) return Number.NaN;
  if (decimals >= 4) return divRoundHalfUp(product, den * pow10(decimals - 4));
  const up = product * pow10(4 - decimals);
  return Number.isSafeInteger(up) ? divRoundHalfUp(up, den) : Number.NaN;
}

/** The integer route's reductions: their total quote P/L in points, realized P/L at 4 decimals, and amounts; null if unsafe. */
function integerReductions(
  plan: FillPlan,
  fillInt: number,
  precision: number,
  spread2: number,
): { quotePLPoints: number; pl4: number; reductions: ReductionAmounts[] | undefined } | null {
  const sign = plan.isBuy ? 1 : -1;
  let quotePLPoints = 0;
  let pl4 = 0;
  let reductions: ReductionAmounts[] | undefined;
  for (const r of plan.reductions) {
    const open = parsePriceInt(r.trade.price, precision);
    if (open === null) return null;
    const points = (r.trade.unitsInt > 0 ? fillInt - open : open - fillInt) * r.unitsInt;
    if (!Number.isSafeInteger(points)) return null;
    const realized = toAccountUnits(points, precision);
    if (!Number.isSafeInteger(realized)) return null;
    quotePLPoints += points;
    pl4 += realized;
    (reductions ??= []).push({
      units: String(r.unitsInt * sign),
      realizedPL: formatScaled(realized, 4),
      halfSpreadCost: formatScaled(scaledRound4(r.unitsInt * spread2, precision, 2), 4),
      plHomeConversionCost: zeroText(precision),
      homeConversionCost: zeroText(COST_DECIMALS),
    });
  }
  if (!Number.isSafeInteger(quotePLPoints) || !Number.isSafeInteger(pl4)) return null;
  return { quotePLPoints, pl4, reductions };
}

/**
 * The same amounts on safe integers, for whole units in an instrument quoted in the home
 * currency; null as soon as a step would leave the safe integers.
 */
export function integerAmounts(state: AccountState, plan: FillPlan, quote: FillQuote, rate: MarginRate): FillAmounts | null {
  const { fillInt, precision } = quote;
  const requested = plan.requestedInt;
  const opening = plan.openingInt;
  const filledAbs = plan.reducedInt + opening;
  if (!Number.isSafeInteger(requested) || requested === 0 || !Number.isSafeInteger(filledAbs)) return null;
  const sum2 = quote.bid + quote.ask;
  const spread2 = Math.abs(2 * fillInt - sum2); // |fill − mid| × 2 × 10^precision
  const halfSpreadTotal = scaledRound4(filledAbs * spread2, precision, 2);
  if (Number.isNaN(halfSpreadTotal)) return null;
  let margin4 = 0;
  if (opening !== 0) {
    const parts = state.memo.partsOf(rate.text);
    if (parts === null || parts.numerator === 0) return null;
    // opening × mid × rate = opening × sum2 × numerator / (2 × 10^(precision + rate decimals))
    margin4 = scaledRound4(opening * sum2 * parts.numerator, precision + parts.decimals, 2);
    if (Number.isNaN(margin4)) return null;
  }
  const closed = integerReductions(plan, fillInt, precision, spread2);
  if (closed === null) return null;
  const { quotePLPoints, pl4, reductions } = closed;
  const sign = plan.isBuy ? 1 : -1;
  let accountBalance = state.balanceText;
  if (pl4 !== 0) {
    const balance4 = parseScaled(state.balanceText, 4);
    if (balance4 === null || !Number.isSafeInteger(balance4 + pl4)) return null;
    accountBalance = formatScaled(balance4 + pl4, 4);
  }
  const priceStr = formatPriceInt(fillInt, precision);
  return {
    units: String(filledAbs * sign),
    requestedUnits: String(requested),
    price: priceStr,
    pl: reductions === undefined ? '0.0000' : formatScaled(pl4, 4),
    quotePL: formatScaled(quotePLPoints, precision),
    accountBalance,
    halfSpreadCost: formatScaled(halfSpreadTotal, 4),
    gainQuoteFactor: '1',
    lossQuoteFactor: '1',
    plHomeConversionCost: zeroText(precision),
    homeConversionCost: zeroText(COST_DECIMALS),
    reductions: reductions ?? NONE,
    opening:
      opening === 0
        ? undefined
        : {
            units: String(opening * sign),
            halfSpreadCost: formatScaled(scaledRound4(opening * spread2, precision, 2), 4),
            initialMarginRequired: formatScaled(margin4, 4),
          },
  };
}
