import { formatPriceInt } from '../../domain/price.js';
import { formatRfc3339, type Micros } from '../../domain/time.js';
import type { CandleRecord } from './series.js';

export interface PriceComponents {
  readonly mid: boolean;
  readonly bid: boolean;
  readonly ask: boolean;
}

/** v20's `price` parameter: any combination of M, B and A, each at most once. */
export function parsePriceComponents(text: string): PriceComponents | null {
  if (text.length === 0 || text.length > 3 || !/^[MBA]+$/.test(text)) return null;
  if (new Set(text).size !== text.length) return null;
  return { mid: text.includes('M'), bid: text.includes('B'), ask: text.includes('A') };
}

/** A doubled mid (bid + ask) to the grid, half up (prices are positive). */
function midInt(doubled: number): number {
  return Math.floor((doubled + 1) / 2);
}

function ohlc(o: number, h: number, l: number, c: number, precision: number): Record<string, string> {
  return {
    o: formatPriceInt(o, precision),
    h: formatPriceInt(h, precision),
    l: formatPriceInt(l, precision),
    c: formatPriceInt(c, precision),
  };
}

/**
 * The v20 Candlestick of a candle. `complete` when its end is not after `now`. Smoothed: the open
 * is the previous candle's close (and the high and low stretch to include it).
 */
export function candleView(
  c: CandleRecord,
  precision: number,
  components: PriceComponents,
  now: Micros,
  previous: CandleRecord | undefined,
  smooth: boolean,
): Record<string, unknown> {
  const view: Record<string, unknown> = { complete: c.end <= now, volume: c.volume, time: formatRfc3339(c.start) };
  const p = smooth ? previous : undefined;
  if (components.bid) {
    const o = p === undefined ? c.bo : p.bc;
    view['bid'] = ohlc(o, Math.max(c.bh, o), Math.min(c.bl, o), c.bc, precision);
  }
  if (components.mid) {
    const o = midInt(p === undefined ? c.mo : p.mc);
    view['mid'] = ohlc(o, Math.max(midInt(c.mh), o), Math.min(midInt(c.ml), o), midInt(c.mc), precision);
  }
  if (components.ask) {
    const o = p === undefined ? c.ao : p.ac;
    view['ask'] = ohlc(o, Math.max(c.ah, o), Math.min(c.al, o), c.ac, precision);
  }
  return view;
}
