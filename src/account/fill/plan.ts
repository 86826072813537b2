import { Decimal, ZERO } from '../../domain/decimal.js';
import type { AccountState, OrderRecord, TradeRecord } from '../state.js';

export interface FillRequest {
  readonly order: OrderRecord;
  /** Signed units asked for: positive buys. */
  readonly units: Decimal;
  /**
   * `units` as a safe whole number, when the caller has it at hand (NaN: not whole or too large).
   * Absent, the fill derives it from `units` when it needs it.
   */
  readonly unitsInt?: number;
  readonly reason: string;
  /** Close exactly this trade (TP/SL/TSL, trade close). */
  readonly closeTradeId?: number;
  /** Close this side of the position, oldest trade first (position closeout). */
  readonly closeSide?: 'long' | 'short';
  readonly positionFill: string;
  readonly clientOrderID?: string;
}

/** Units taken off one open trade. */
export interface Reduction {
  readonly trade: TradeRecord;
  /** Absolute units taken off the trade. */
  readonly units: Decimal;
  /** `units` as a safe whole number, NaN when it is not one. */
  readonly unitsInt: number;
  /** Whether the reduction closes the trade. */
  readonly closes: boolean;
}

/** Which trades a fill reduces and how much it opens: decided once, before any amount. */
export interface FillPlan {
  readonly isBuy: boolean;
  /** Oldest trade first. */
  readonly reductions: readonly Reduction[];
  /** Σ reduction units (absolute), and as a safe whole number or NaN. */
  readonly reduced: Decimal;
  readonly reducedInt: number;
  /** Absolute units that open a new trade (zero when nothing opens). */
  readonly opening: Decimal;
  readonly openingInt: number;
  /** The signed units asked for as a safe whole number, NaN when they are not one. */
  readonly requestedInt: number;
}

/** Whether the plan opens no units (read from the integers when the plan has them). */
export function opensNothing(plan: FillPlan): boolean {
  return Number.isNaN(plan.openingInt) ? plan.opening.isZero() : plan.openingInt === 0;
}

/** Whether the plan reduces no units (read from the integers when the plan has them). */
export function reducesNothing(plan: FillPlan): boolean {
  return Number.isNaN(plan.reducedInt) ? plan.reduced.isZero() : plan.reducedInt === 0;
}

const NO_TRADES: readonly number[] = Object.freeze([]);
const NO_REDUCTIONS: readonly Reduction[] = Object.freeze([]);

/** DEFAULT means REDUCE_FIRST on netting accounts and OPEN_ONLY on hedging ones. */
function resolvePositionFill(positionFill: string, hedging: boolean): string {
  if (positionFill === 'DEFAULT') return hedging ? 'OPEN_ONLY' : 'REDUCE_FIRST';
  // A netting account cannot hold both sides, so OPEN_ONLY reduces first there.
  if (positionFill === 'OPEN_ONLY' && !hedging) return 'REDUCE_FIRST';
  return positionFill;
}

/** A safe whole number of a Decimal, or NaN. */
function wholeOf(d: Decimal): number {
  if (!d.isInteger()) return Number.NaN;
  const n = d.toNumber();
  return Number.isSafeInteger(n) ? n : Number.NaN;
}

/**
 * Where a fill looks for trades to reduce: one trade (a close), one side (a position closeout) or
 * the opposite side as positionFill says; and whether units left over may open a trade. Looks
 * up, never creates: deciding must not touch state (a cancelled fill would leave a position
 * replay lacks).
 */
function candidates(
  state: AccountState,
  req: FillRequest,
  isBuy: boolean,
): { single: TradeRecord | undefined; trades: readonly number[]; opens: boolean } {
  if (req.closeTradeId !== undefined) return { single: state.trades.get(req.closeTradeId), trades: NO_TRADES, opens: false };
  const position = state.positions.get(req.order.instrument);
  if (req.closeSide !== undefined) {
    const side = req.closeSide === 'long' ? position?.long : position?.short;
    return { single: undefined, trades: side?.tradeIds ?? NO_TRADES, opens: false };
  }
  const mode = resolvePositionFill(req.positionFill, state.hedgingEnabled);
  const opposite = mode === 'OPEN_ONLY' ? undefined : isBuy ? position?.short : position?.long;
  return { single: undefined, trades: opposite?.tradeIds ?? NO_TRADES, opens: mode !== 'REDUCE_ONLY' };
}

/**
 * The fill plan: reductions close the oldest open trades first; any remainder opens a trade.
 * `fillable` (absolute units) caps what the fill takes when the quote's liquidity is short of the
 * request; the plan still reports the units requested. Whole units are planned on safe integers
 * (the Decimals made only if something asks for them: the integer amounts never do); anything
 * else goes through decimal.js, with the same result (fill-routes.prop.test.ts).
 */
export function planFill(state: AccountState, req: FillRequest, fillable?: Decimal): FillPlan {
  const isBuy = req.units.isPositive();
  const where = candidates(state, req, isBuy);
  const requestedInt = requestedIntOf(req);
  if (fillable === undefined && Number.isSafeInteger(requestedInt)) {
    const plan = wholePlan(state, where, isBuy, requestedInt);
    if (plan !== null) return plan;
  }
  return decimalPlan(state, req, where, isBuy, requestedInt, fillable);
}

/** The plan in decimal.js, for every request (planFill's route for what is not whole). */
export function planFillInDecimals(state: AccountState, req: FillRequest, fillable?: Decimal): FillPlan {
  const isBuy = req.units.isPositive();
  return decimalPlan(state, req, candidates(state, req, isBuy), isBuy, requestedIntOf(req), fillable);
}

type Candidates = ReturnType<typeof candidates>;

function requestedIntOf(req: FillRequest): number {
  return req.unitsInt !== undefined && !Number.isNaN(req.unitsInt) ? req.unitsInt : wholeOf(req.units);
}

function decimalPlan(
  state: AccountState,
  req: FillRequest,
  where: Candidates,
  isBuy: boolean,
  requestedInt: number,
  fillable: Decimal | undefined,
): FillPlan {
  let remaining = fillable ?? req.units.abs();
  let remainingInt = fillable === undefined ? Math.abs(requestedInt) : wholeOf(fillable);
  let reductions: Reduction[] | undefined;
  let reduced = ZERO;
  let reducedInt = 0;
  const count = where.single !== undefined ? 1 : where.trades.length;
  for (let i = 0; i < count && !remaining.isZero(); i += 1) {
    const trade = where.single ?? (state.trades.get(where.trades[i] as number) as TradeRecord);
    if (trade.state !== 'OPEN') continue;
    const available = trade.currentUnits.abs();
    const closes = available.lessThanOrEqualTo(remaining);
    const units = closes ? available : remaining;
    const tradeInt = Math.abs(trade.unitsInt);
    // A trade that is not a safe whole number leaves the whole plan without integers.
    const unitsInt = Number.isNaN(tradeInt) ? Number.NaN : closes ? tradeInt : remainingInt;
    (reductions ??= []).push({ trade, units, unitsInt, closes });
    reduced = reduced.plus(units);
    reducedInt += unitsInt;
    remaining = remaining.minus(units);
    remainingInt -= unitsInt;
  }
  const opening = where.opens ? remaining : ZERO;
  return {
    isBuy,
    reductions: reductions ?? NO_REDUCTIONS,
    reduced,
    reducedInt,
    opening,
    openingInt: where.opens ? remainingInt : 0,
    requestedInt,
  };
}

/** The plan on safe integers; null when a trade it would reduce is not a safe whole number. */
function wholePlan(state: AccountState, where: Candidates, isBuy: boolean, requestedInt: number): FillPlan | null {
  let remaining = Math.abs(requestedInt);
  let reductions: Reduction[] | undefined;
  let reduced = 0;
  const count = where.single !== undefined ? 1 : where.trades.length;
  for (let i = 0; i < count && remaining !== 0; i += 1) {
    const trade = where.single ?? (state.trades.get(where.trades[i] as number) as TradeRecord);
    if (trade.state !== 'OPEN') continue;
    const available = Math.abs(trade.unitsInt);
    if (!Number.isSafeInteger(available)) return null;
    const closes = available <= remaining;
    const units = closes ? available : remaining;
    (reductions ??= []).push(new WholeReduction(trade, units, closes));
    reduced += units;
    remaining -= units;
  }
  return new WholePlan(isBuy, reductions ?? NO_REDUCTIONS, reduced, where.opens ? remaining : 0, requestedInt);
}

function decimalOf(units: number): Decimal {
  return units === 0 ? ZERO : new Decimal(units);
}

/** A reduction by whole units; its Decimal is made when asked for. */
class WholeReduction implements Reduction {
  private decimal: Decimal | undefined;

  constructor(
    readonly trade: TradeRecord,
    readonly unitsInt: number,
    readonly closes: boolean,
  ) {}

  get units(): Decimal {
    return (this.decimal ??= decimalOf(this.unitsInt));
  }
}

/** A plan in whole units; its Decimals are made when asked for. */
class WholePlan implements FillPlan {
  private reducedDecimal: Decimal | undefined;
  private openingDecimal: Decimal | undefined;

  constructor(
    readonly isBuy: boolean,
    readonly reductions: readonly Reduction[],
    readonly reducedInt: number,
    readonly openingInt: number,
    readonly requestedInt: number,
  ) {}

  get reduced(): Decimal {
    return (this.reducedDecimal ??= decimalOf(this.reducedInt));
  }

  get opening(): Decimal {
    return (this.openingDecimal ??= decimalOf(this.openingInt));
  }
}
