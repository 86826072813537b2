/**
 * The sums of a position side (PositionSideRecord): kept as safe integers while they fit, as
 * Decimals once they do not, and read as Decimals through sideUnits and sideCost.
 */
import { Decimal, ZERO, writtenDecimals } from '../domain/decimal.js';
import { POW10, priceIntToDecimal } from '../domain/price.js';
import { parseScaled } from '../domain/scaled-int.js';
import type { PositionSideRecord } from './state.js';

/** A side's units as a Decimal (PositionSideRecord.units, made from unitsInt on first read). */
export function sideUnits(side: PositionSideRecord): Decimal {
  return (side.units ??= new Decimal(side.unitsInt));
}

/** A side's cost as a Decimal (PositionSideRecord.cost, made from costInt on first read). */
export function sideCost(side: PositionSideRecord): Decimal {
  return (side.cost ??= side.costInt === 0 ? ZERO : priceIntToDecimal(side.costInt, side.costScale));
}

/** Whether two records of a side (the live one, a view's copy) hold the same units. */
export function sameUnits(a: PositionSideRecord, b: PositionSideRecord): boolean {
  return a.unitsInt === b.unitsInt || (Number.isNaN(a.unitsInt) && Number.isNaN(b.unitsInt) && a.units === b.units);
}

/** Whether two records of a side hold the same cost. */
export function sameCost(a: PositionSideRecord, b: PositionSideRecord): boolean {
  return (
    (a.costInt === b.costInt && a.costScale === b.costScale) || (Number.isNaN(a.costInt) && Number.isNaN(b.costInt) && a.cost === b.cost)
  );
}

/** Whether a side's units and cost are both zero (a side that holds nothing). */
export function sideIsEmpty(side: PositionSideRecord): boolean {
  return Number.isNaN(side.unitsInt) ? sideUnits(side).isZero() && sideCost(side).isZero() : side.unitsInt === 0 && side.costInt === 0;
}

/** Whether a side holds any units. */
export function sideIsOpen(side: PositionSideRecord): boolean {
  return Number.isNaN(side.unitsInt) ? !sideUnits(side).isZero() : side.unitsInt !== 0;
}

/**
 * Adds a change of units to a side, and units × price to its cost: as integers while the units
 * are whole, the price has the side's decimals and every figure fits a safe integer (a product
 * or sum past 2^53 is not one), else as Decimals from then on (PositionSideRecord); the price is
 * parsed only then.
 */
export function addToSide(side: PositionSideRecord, unitsInt: number, units: Decimal, priceText: string): void {
  if (!Number.isNaN(side.unitsInt)) {
    const scale = side.costScale < 0 ? writtenDecimals(priceText) : side.costScale;
    // Past the grids priceIntToDecimal knows (prices print at most 10 decimals) the Decimals are the sums.
    const priceInt = scale < POW10.length ? parseScaled(priceText, scale) : null;
    if (priceInt !== null) {
      const costChange = unitsInt * priceInt;
      const newUnits = side.unitsInt + unitsInt;
      const newCost = side.costInt + costChange;
      if (Number.isSafeInteger(costChange) && Number.isSafeInteger(newUnits) && Number.isSafeInteger(newCost)) {
        side.unitsInt = newUnits;
        side.costInt = newCost;
        side.costScale = scale;
        side.units = undefined;
        side.cost = undefined;
        return;
      }
    }
  }
  side.units = sideUnits(side).plus(units);
  side.cost = sideCost(side).plus(units.times(new Decimal(priceText)));
  side.unitsInt = Number.NaN;
  side.costInt = Number.NaN;
}

/** A side whose last trade closed: nothing is held, whatever the sums would say. */
export function clearSums(side: PositionSideRecord): void {
  side.units = ZERO;
  side.cost = ZERO;
  side.unitsInt = 0;
  side.costInt = 0;
  side.costScale = -1;
  side.unitsFloat = 0;
  side.costFloat = 0;
}
