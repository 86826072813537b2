import type { TrailingStopValueRecord } from '../domain/journal-entry.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import { Direction, watchedValue2 } from '../matching/fill-rules.js';
import { evolve } from './evolve.js';
import { trailingValueText } from './placement.js';
import { instrumentSpec, type AccountState, type OrderRecord } from './state.js';

/**
 * Trailing stop levels are decided here and written by evolve() from a TRAILING_STOP_VALUE
 * record, which the journal keeps: a level follows the quotes, and the journal holds no quotes.
 */
export function trailingStopValueRecord(state: AccountState, order: OrderRecord, value2: number, time: string): TrailingStopValueRecord {
  const precision = instrumentSpec(state, order.instrument).displayPrecision;
  return { type: 'TRAILING_STOP_VALUE', orderID: String(order.id), trailingStopValue: trailingValueText(value2, precision), time };
}

/**
 * The level a trailing stop takes from the latest quote when it is created: the distance away
 * from the watched price, if that is tighter than the level it has (v20 measures a trailing stop
 * on fill from the trade's price, and it trails the market from there). Undefined when it keeps
 * its level (or there is no quote yet: the first quote then gives it one).
 */
export function levelFromMarket(state: AccountState, order: OrderRecord): number | undefined {
  const t = order.trailing;
  const slot = state.prices.get(order.instrument);
  if (t === undefined || slot === undefined || !slot.known) return undefined;
  const watched2 = watchedValue2(t.source, slot.bid, slot.ask);
  const fromMarket = t.direction === Direction.LE ? watched2 - t.distance2 : watched2 + t.distance2;
  const tighter = Number.isNaN(t.value2) || (t.direction === Direction.LE ? fromMarket > t.value2 : fromMarket < t.value2);
  return tighter ? fromMarket : undefined;
}

/**
 * Folds the levels a quote moved (pairs of order ID and value2, as InstrumentTriggers.collectCrossed
 * reports them) into the account, and returns their records for the journal, in the same order.
 */
export function moveTrailingStops(state: AccountState, moved: readonly number[], time: Micros): TrailingStopValueRecord[] {
  const stamp = formatRfc3339(time);
  const records: TrailingStopValueRecord[] = [];
  for (let i = 0; i + 1 < moved.length; i += 2) {
    const order = state.orders.get(moved[i] as number);
    if (order === undefined) throw new Error(`trigger index moved unknown order ${moved[i]}`);
    const record = trailingStopValueRecord(state, order, moved[i + 1] as number, stamp);
    evolve(state, record);
    records.push(record);
  }
  return records;
}
