import { baseCurrency, quoteCurrency } from '../domain/instruments.js';
import { ORDER_TYPES, orderTransactionType } from '../domain/order-types.js';
import type { AccountState, PositionRecord, PriceSlot } from './state.js';
import { currencyToHomeFloat, effectiveMarginRateText, type AccountValuation } from './valuation.js';

/**
 * Which quotes can move an account across a margin level, decided once per change instead of a
 * Decimal valuation per quote. After each exact check (margin-call.ts) every price that matters to
 * the margin gets a band of bid + ask on its integer grid; a quote inside its band cannot cross a
 * level, so the quote path costs two compares (Account.onQuote). Any transaction marks the levels
 * stale (evolve) and the next quote checks them exactly, so fills, funds, financing and rates
 * need no band of their own.
 *
 * Why a band is safe. Both levels are signs of g = closeoutNAV − k × marginUsed (k = 1 for the
 * margin call, ½ for the closeout), a sum of terms T: the balance, each position's Σunits × mid × F
 * and Σcost × F (F its quote→home factor) and its margin max(|long|, |short|) × mid × F × rate.
 * When one mid moves by a relative r, each term it is part of (its own instrument's, or those whose
 * F it converts) moves by at most |T| × |r| / (1 − |r|), F being the pair's mid or its inverse. So
 * with D = the distance of g from the nearest level, n the prices that matter and W_i the Σ|T| that
 * price i is part of, no level is crossed while every price moves by less than r_i, where
 * W_i × r_i / (1 − r_i) = D / (2n): the half leaves room for float rounding, the conversion fee
 * and products of moves. A conversion factor is taken to depend on the pairs that name the
 * position's quote currency or the home currency (direct, inverse, or two hops through any
 * currency); a price that becomes known for the first time marks the levels stale (Account.onQuote).
 */

/** Every order's creation and reject, cancels and client-extension edits (from the order-type table). */
const KEEPS_MARGIN_LEVELS: ReadonlySet<string> = new Set<string>([
  ...ORDER_TYPES.flatMap((type) => [orderTransactionType(type), `${orderTransactionType(type)}_REJECT`]),
  'ORDER_CANCEL',
  'ORDER_CANCEL_REJECT',
  'ORDER_CLIENT_EXTENSIONS_MODIFY',
  'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
  'TRADE_CLIENT_EXTENSIONS_MODIFY',
  'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
] satisfies string[]);

/**
 * Whether a transaction may move the margin levels (fills, funds, financing, rates, margin calls),
 * so that evolve marks them for an exact check at the next quote. Creating, cancelling or
 * rejecting an order and editing client extensions move no balance, position or rate (pending
 * orders use no margin in v20); any other type, a new one included, counts as moving them.
 */
export function movesMarginLevels(type: string): boolean {
  return !KEEPS_MARGIN_LEVELS.has(type);
}

/** The share of the distance to the nearest level that the bands hand out. */
const SAFETY = 0.5;
/** Below this margin used (account currency) every quote of a price that matters is checked exactly. */
const MARGIN_FLOOR = 0.01;

function known(state: AccountState, instrument: string): PriceSlot | undefined {
  const slot = state.prices.get(instrument);
  return slot !== undefined && slot.known ? slot : undefined;
}

function addWeight(weights: Map<string, number>, instrument: string, w: number): void {
  weights.set(instrument, (weights.get(instrument) ?? 0) + w);
}

/** Whether a price of `instrument` may take part in converting `quote` into `home`. */
function converts(instrument: string, quote: string, home: string): boolean {
  const base = baseCurrency(instrument);
  const q = quoteCurrency(instrument);
  return base === quote || q === quote || base === home || q === home;
}

/** What a position's margin terms are priced with; undefined while its price or conversion is unknown. */
function pricing(state: AccountState, position: PositionRecord): { mid: number; factor: number; rate: number } | undefined {
  const slot = known(state, position.instrument);
  const spec = state.instruments.get(position.instrument);
  if (slot === undefined || spec === undefined) return undefined;
  const factor = currencyToHomeFloat(state, quoteCurrency(position.instrument));
  if (Number.isNaN(factor)) return undefined;
  return { mid: (slot.bid + slot.ask) / (2 * slot.scale), factor, rate: state.memo.rateFloatOf(effectiveMarginRateText(state, spec)) };
}

/** Adds the position's terms to the weights of the prices they depend on; returns Σ|T|. NaN: a price is missing. */
function weighPosition(state: AccountState, position: PositionRecord, weights: Map<string, number>): number {
  const { long, short } = position;
  // Valued at zero until quoted, or until a conversion is quoted (that quote marks the levels stale).
  const priced = pricing(state, position);
  if (priced === undefined) return 0;
  const { mid, factor, rate } = priced;
  const quote = quoteCurrency(position.instrument);
  const exposure = Math.abs((long.unitsFloat + short.unitsFloat) * mid * factor);
  const cost = Math.abs((long.costFloat + short.costFloat) * factor);
  const margin = Math.max(Math.abs(long.unitsFloat), Math.abs(short.unitsFloat)) * mid * factor * rate;
  const home = state.currency;
  if (quote === home) {
    addWeight(weights, position.instrument, exposure + margin);
  } else {
    const all = exposure + cost + margin;
    addWeight(weights, position.instrument, all);
    for (const name of state.prices.keys()) {
      if (name !== position.instrument && converts(name, quote, home) && known(state, name) !== undefined) addWeight(weights, name, all);
    }
  }
  return exposure + cost + margin;
}

/**
 * Marks the levels for an exact check at the next quote of any price: every band closes (low
 * above high), so the quote path needs no flag of its own. A price slot opens closed too.
 */
export function markMarginStale(state: AccountState): void {
  if (state.marginStale) return;
  state.marginStale = true;
  for (const slot of state.prices.values()) {
    slot.marginLow = Number.POSITIVE_INFINITY;
    slot.marginHigh = Number.NEGATIVE_INFINITY;
  }
}

function disarm(state: AccountState): void {
  for (const slot of state.prices.values()) {
    slot.marginLow = Number.NEGATIVE_INFINITY;
    slot.marginHigh = Number.POSITIVE_INFINITY;
  }
}

/** The closeout NAV and the margin used of an account, or bounds of them (see marginBounds). */
export interface MarginFigures {
  readonly nav: number;
  readonly used: number;
}

export function exactFigures(v: AccountValuation): MarginFigures {
  return { nav: v.marginCloseoutNAV.toNumber(), used: v.marginCallMarginUsed.toNumber() };
}

/** The conversion fee is below 0.1 (account-config.ts): no conversion moves a term by more. */
const FEE_BOUND = 1.1;

/**
 * A lower bound of the closeout NAV and an upper bound of the margin used, in floats, when they
 * already show the account clear of both levels (nav > used); otherwise undefined, and the caller
 * values the account exactly. A position's unrealized P/L at mid is at most |units × mid| + |cost|
 * in its quote currency, converted at most FEE_BOUND times the mid factor; its margin is the larger
 * side's units × mid × factor × rate. Bands built from these bounds are narrower than the exact
 * ones, so they stay safe. On an account far from its levels this replaces a Decimal valuation per
 * fill with a few float operations per position.
 */
export function marginBounds(state: AccountState): MarginFigures | undefined {
  if (state.marginCall !== undefined) return undefined;
  let used = 0;
  let risk = 0;
  for (const position of state.positions.values()) {
    const { long, short } = position;
    if (long.unitsFloat === 0 && short.unitsFloat === 0) continue;
    const priced = pricing(state, position);
    if (priced === undefined) return undefined;
    const { mid, factor, rate } = priced;
    used += Math.max(Math.abs(long.unitsFloat), Math.abs(short.unitsFloat)) * mid * factor * rate;
    risk +=
      ((Math.abs(long.unitsFloat) + Math.abs(short.unitsFloat)) * mid + Math.abs(long.costFloat) + Math.abs(short.costFloat)) * factor;
  }
  const slack = 1e-6 * (Math.abs(state.balanceFloat) + risk + used);
  const nav = state.balanceFloat - risk * FEE_BOUND - slack;
  used = used * (1 + 1e-6) + slack;
  return used >= MARGIN_FLOOR && nav > used ? { nav, used } : undefined;
}

/**
 * Sets every price's band from the figures just decided on (exact, or the bounds above;
 * undefined: the account holds nothing, so no price matters) and clears the stale mark.
 */
export function watchMargin(state: AccountState, figures: MarginFigures | undefined): void {
  state.marginStale = false;
  disarm(state);
  if (figures === undefined || state.openTradeCount === 0) return;
  const weights = new Map<string, number>();
  let terms = Math.abs(state.balanceFloat);
  for (const position of state.positions.values()) terms += weighPosition(state, position, weights);
  const { used, nav } = figures;
  const distance = Math.min(Math.abs(nav - used), Math.abs(nav - 0.5 * used));
  // Float rounding of the terms is far below a millionth of their sum.
  const budget = used < MARGIN_FLOOR ? 0 : distance * SAFETY - terms * 1e-9;
  const share = budget / weights.size;
  for (const [instrument, weight] of weights) {
    if (weight <= 0) continue; // no term depends on this price
    const slot = state.prices.get(instrument) as PriceSlot;
    const sum = slot.bid + slot.ask;
    const room = share > 0 ? share / weight : 0;
    const r = room / (1 + room);
    slot.marginLow = Math.min(sum, Math.ceil(sum * (1 - r)));
    slot.marginHigh = Math.max(sum, Math.floor(sum * (1 + r)));
  }
}
