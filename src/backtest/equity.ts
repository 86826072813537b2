import type { AccountState, PriceSlot } from '../account/state.js';
import { currencyToHomeFloat } from '../account/valuation.js';
import { quoteCurrency } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';

/** Why an equity point was taken. */
export const POINT_START = 0;
export const POINT_INTERVAL = 1;
export const POINT_FILL = 2;
export const POINT_END = 3;
export const POINT_KINDS = ['start', 'interval', 'fill', 'end'] as const;
export type PointKind = (typeof POINT_KINDS)[number];

/** The equity curve as parallel arrays (one entry per point, in time order). */
export interface EquityCurve {
  readonly time: Micros[];
  /** Balance + unrealized P/L at the latest quotes (v20's NAV), in the account currency. */
  readonly nav: number[];
  readonly balance: number[];
  readonly kind: number[];
}

/** Mid prices of one instrument at the interval points, for the price chart. */
export interface PriceSeries {
  readonly time: Micros[];
  readonly mid: number[];
}

interface OpenPosition {
  readonly slot: PriceSlot | undefined;
  readonly quote: string;
  readonly longUnits: number;
  readonly longCost: number;
  readonly shortUnits: number;
  readonly shortCost: number;
}

/**
 * Marks the account to market in floating point: balance plus, per open position, units at the
 * closing side of the latest quote (bid for longs, ask for shorts) minus cost, converted to the
 * account currency at the mid of the linking pair, as valueAccount does with decimals. Positions
 * are read from the book only after a transaction changed it; between transactions a point costs
 * a few multiplications. Floating point is deterministic here: the same operations in the same
 * order give the same bits on every machine.
 */
export class MarkToMarket {
  private readonly state: AccountState;
  private open: OpenPosition[] = [];
  private stale = true;

  constructor(state: AccountState) {
    this.state = state;
  }

  /** Call after any transaction: the book may have changed. */
  invalidate(): void {
    this.stale = true;
  }

  private refresh(): void {
    const open: OpenPosition[] = [];
    for (const position of this.state.positions.values()) {
      const { long, short } = position;
      if (long.units.isZero() && short.units.isZero()) continue;
      open.push({
        slot: this.state.prices.get(position.instrument),
        quote: quoteCurrency(position.instrument),
        longUnits: long.units.toNumber(),
        longCost: long.cost.toNumber(),
        shortUnits: short.units.toNumber(),
        shortCost: short.cost.toNumber(),
      });
    }
    this.open = open;
    this.stale = false;
  }

  balance(): number {
    return this.state.balanceFloat;
  }

  nav(): number {
    if (this.stale) this.refresh();
    let unrealized = 0;
    for (const p of this.open) {
      const slot = p.slot;
      if (slot === undefined || !slot.known) continue;
      const factor = currencyToHomeFloat(this.state, p.quote);
      if (Number.isNaN(factor)) continue; // no linking price yet: v20 values the position at zero too
      const quotePL = p.longUnits * (slot.bid / slot.scale) - p.longCost + (p.shortUnits * (slot.ask / slot.scale) - p.shortCost);
      unrealized += quotePL * factor;
    }
    return this.state.balanceFloat + unrealized;
  }

  hasOpenPositions(): boolean {
    if (this.stale) this.refresh();
    return this.open.length > 0;
  }
}

export class EquityRecorder {
  readonly curve: EquityCurve = { time: [], nav: [], balance: [], kind: [] };
  readonly prices = new Map<string, PriceSeries>();
  private readonly mtm: MarkToMarket;
  private readonly state: AccountState;

  constructor(state: AccountState) {
    this.state = state;
    this.mtm = new MarkToMarket(state);
  }

  invalidate(): void {
    this.mtm.invalidate();
  }

  record(time: Micros, kind: number): void {
    const c = this.curve;
    c.time.push(time);
    c.nav.push(this.mtm.nav());
    c.balance.push(this.mtm.balance());
    c.kind.push(kind);
    if (kind === POINT_INTERVAL || kind === POINT_START || kind === POINT_END) this.recordPrices(time);
  }

  private recordPrices(time: Micros): void {
    for (const [instrument, slot] of this.state.prices) {
      if (!slot.known) continue;
      let series = this.prices.get(instrument);
      if (series === undefined) {
        series = { time: [], mid: [] };
        this.prices.set(instrument, series);
      }
      const last = series.time.length - 1;
      const mid = (slot.bid + slot.ask) / (2 * slot.scale);
      if (last >= 0 && series.time[last] === time) series.mid[last] = mid;
      else {
        series.time.push(time);
        series.mid.push(mid);
      }
    }
  }
}
