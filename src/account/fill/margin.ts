import type { Decimal } from '../../domain/decimal.js';
import { quoteCurrency } from '../../domain/instruments.js';
import type { AccountState, PriceSlot } from '../state.js';
import { approxMarginAvailable, currencyToHomeFloat, midDecimal, valueAccount } from '../valuation.js';
import type { MarginRate } from './amounts.js';
import type { FillPlan } from './plan.js';

/**
 * The quick half of the margin check: whether margin available (after the units this fill
 * releases) covers the opening units' initial margin, from float shadows of the book. 1 or -1
 * when the answer is clear, 0 when the case is near the boundary and must be computed exactly.
 */
function marginPrecheck(state: AccountState, openingFloat: number, reducedFloat: number, perUnitFloat: number): number {
  const approx = approxMarginAvailable(state);
  if (Number.isNaN(approx) || Number.isNaN(perUnitFloat)) return 0;
  const slack = approx + reducedFloat * perUnitFloat - openingFloat * perUnitFloat;
  const tolerance = 1e-6 * (Math.abs(state.balanceFloat) + Math.abs(approx) + openingFloat * perUnitFloat) + 0.01;
  if (slack > tolerance) return 1;
  if (slack < -tolerance) return -1;
  return 0;
}

/** The exact half: the Decimal valuation of the whole account (a pass over every position). */
function hasMarginExactly(state: AccountState, plan: FillPlan, mid: Decimal, factor: Decimal, rate: Decimal): boolean {
  const released = plan.reduced.times(mid).times(factor).times(rate);
  const initialMargin = plan.opening.times(mid).times(factor).times(rate);
  return !valueAccount(state).marginAvailable.plus(released).lessThan(initialMargin);
}

/**
 * Whether margin available, plus what the plan's reductions release, covers the initial margin of
 * the units it opens: a float pre-check, and the exact Decimal valuation when that is not sure.
 */
export function hasMarginFor(
  state: AccountState,
  plan: FillPlan,
  slot: PriceSlot,
  instrument: string,
  precision: number,
  rate: MarginRate,
  quoteFactor: Decimal,
): boolean {
  const perUnitFloat =
    ((slot.bid + slot.ask) / (2 * slot.scale)) * currencyToHomeFloat(state, quoteCurrency(instrument)) * state.memo.rateFloatOf(rate.text);
  const openingFloat = Number.isNaN(plan.openingInt) ? plan.opening.toNumber() : plan.openingInt;
  const reducedFloat = Number.isNaN(plan.reducedInt) ? plan.reduced.toNumber() : plan.reducedInt;
  const quick = marginPrecheck(state, openingFloat, reducedFloat, perUnitFloat);
  if (quick !== 0) return quick > 0;
  return hasMarginExactly(state, plan, midDecimal(slot, precision), quoteFactor, rate.decimal);
}
