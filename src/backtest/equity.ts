import type { AccountState, PositionSideRecord, PriceSlot } from '../account/state.js';
import { sideCost, sideIsOpen, sideUnits } from '../account/side-sums.js';
import { currencyToHomeFloat } from '../account/valuation.js';
import { quoteCurrency } from '../domain/instruments.js';
import type { Decimal } from '../domain/decimal.js';
import { POW10 } from '../domain/price.js';
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

function floatOf(d: Decimal): number {
  return d.isZero() ? 0 : d.toNumber();
}

/** A side's units as the float of their Decimal: its integer sum is that float. */
function unitsFloat(side: PositionSideRecord): number {
  return Number.isNaN(side.unitsInt) ? floatOf(sideUnits(side)) : side.unitsInt;
}

/**
 * A side's cost as the float of its Decimal. Its integer sum over a power of ten both exact as
 * floats is that float too (one correctly rounded division of the exact value, as parsing its
 * text is).
 */
function costFloat(side: PositionSideRecord): number {
  // A side with nothing open (scale -1): most sides of most positions.
  if (side.costInt === 0) return 0;
  const scale = POW10[side.costScale];
  if (Number.isNaN(side.costInt) || scale === undefined) return floatOf(sideCost(side));
  return side.costInt / scale;
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
      if (!sideIsOpen(long) && !sideIsOpen(short)) continue;
      open.push({
        slot: this.state.prices.get(position.instrument),
        quote: quoteCurrency(position.instrument),
        // Most positions hold one side: the other is zero without a decimal.js conversion.
        longUnits: unitsFloat(long),
        longCost: costFloat(long),
        shortUnits: unitsFloat(short),
        shortCost: costFloat(short),
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

/** Where an EquityRecorder puts its points: arrays in memory (EquityArrays) or files (stream-outputs.ts). */
export interface EquitySink {
  point(time: Micros, nav: number, balance: number, kind: number): void;
  /** An instrument's mid at a start, interval or end point; a second one at the same time replaces the first. */
  price(instrument: string, time: Micros, mid: number): void;
}

/** The equity points of a run, read in order, wherever they are kept. */
export interface EquityPoints {
  readonly length: number;
  forEach(f: (time: Micros, nav: number, balance: number, kind: number) => void): void;
}

/** One instrument's price points, read in order, wherever they are kept. */
export interface PricePoints {
  readonly length: number;
  forEach(f: (time: Micros, mid: number) => void): void;
}

export function curvePoints(curve: EquityCurve): EquityPoints {
  return {
    length: curve.time.length,
    forEach: (f) => {
      for (let i = 0; i < curve.time.length; i += 1)
        f(curve.time[i] as Micros, curve.nav[i] as number, curve.balance[i] as number, curve.kind[i] as number);
    },
  };
}

export function seriesPoints(series: PriceSeries): PricePoints {
  return {
    length: series.time.length,
    forEach: (f) => {
      for (let i = 0; i < series.time.length; i += 1) f(series.time[i] as Micros, series.mid[i] as number);
    },
  };
}

/** Keeps the whole curve and price series in memory (library runs, sweeps, reports of a journal). */
export class EquityArrays implements EquitySink {
  readonly curve: EquityCurve = { time: [], nav: [], balance: [], kind: [] };
  readonly prices = new Map<string, PriceSeries>();

  point(time: Micros, nav: number, balance: number, kind: number): void {
    const c = this.curve;
    c.time.push(time);
    c.nav.push(nav);
    c.balance.push(balance);
    c.kind.push(kind);
  }

  price(instrument: string, time: Micros, mid: number): void {
    let series = this.prices.get(instrument);
    if (series === undefined) {
      series = { time: [], mid: [] };
      this.prices.set(instrument, series);
    }
    const last = series.time.length - 1;
    if (last >= 0 && series.time[last] === time) series.mid[last] = mid;
    else {
      series.time.push(time);
      series.mid.push(mid);
    }
  }
}

export class EquityRecorder {
  private readonly mtm: MarkToMarket;
  private readonly state: AccountState;
  readonly sink: EquitySink;

  constructor(state: AccountState, sink: EquitySink) {
    this.state = state;
    this.sink = sink;
    this.mtm = new MarkToMarket(state);
  }

  invalidate(): void {
    this.mtm.invalidate();
  }

  record(time: Micros, kind: number): void {
    this.sink.point(time, this.mtm.nav(), this.mtm.balance(), kind);
    if (kind === POINT_INTERVAL || kind === POINT_START || kind === POINT_END) this.recordPrices(time);
  }

  private recordPrices(time: Micros): void {
    for (const [instrument, slot] of this.state.prices) {
      if (!slot.known) continue;
      this.sink.price(instrument, time, (slot.bid + slot.ask) / (2 * slot.scale));
    }
  }
}
