import { formatAccountUnits, formatFixed, formatUnits, type Decimal } from '../domain/decimal.js';
import { formatScaled, fractionDigits } from '../domain/scaled-int.js';
import { shownMarginRate } from './margin-rates.js';
import { balanceOf, type AccountState, type PositionRecord, type PositionSideRecord } from './state.js';
import { sameCost, sameUnits, sideCost, sideIsOpen, sideUnits } from './side-sums.js';
import { PL_DECIMALS, plOf, plText, samePL, type RealizedPL } from './realized-pl.js';
import { valueAccount, valuePosition, type AccountValuation, type PositionValuation, type UnrealizedPL } from './valuation.js';

/**
 * The Position and AccountSummary resources, each split into the texts that change only with
 * transactions and the figures that move with every quote, so that account/view-cache.ts can keep
 * the first per lastTransactionID and print the second on demand (account/lazy-views.ts). The
 * plain views (positionView, accountSummaryView) join the two parts the same way.
 */
export type Json = Record<string, unknown>;

/** A position side's figures that change only with transactions (everything but its unrealized P/L). */
export interface SideTexts {
  readonly units: string;
  readonly averagePrice?: string;
  readonly tradeIDs?: readonly string[];
  readonly pl: string;
  readonly resettablePL: string;
  readonly financing: string;
}

export function displayPrecision(state: AccountState, instrument: string): number {
  return state.instruments.get(instrument)?.displayPrecision ?? 5;
}

/**
 * The texts of `side`. A text printed from the same Decimal object is the same text (Decimals are
 * immutable), so given the texts printed before (`old`), the side they were printed from (`was`,
 * a copy: evolve changes a side in place) and the precision then, a figure no transaction has
 * touched since is not printed again.
 */
export function sideTexts(
  state: AccountState,
  instrument: string,
  side: PositionSideRecord,
  old?: SideTexts,
  was?: PositionSideRecord,
  wasPrecision?: number,
): SideTexts {
  const units = was !== undefined && sameUnits(was, side) ? (old as SideTexts).units : unitsText(side);
  const pl = was !== undefined && samePL(was, side) ? (old as SideTexts).pl : plText(side);
  // Nothing resets the resettable P/L (realized-pl.ts): it is the P/L.
  const resettablePL = pl;
  const financing = was?.financing === side.financing ? (old as SideTexts).financing : formatAccountUnits(side.financing);
  if (!sideIsOpen(side)) return { units, pl, resettablePL, financing };
  const precision = displayPrecision(state, instrument);
  const averagePrice =
    old?.averagePrice !== undefined && was !== undefined && sameUnits(was, side) && sameCost(was, side) && wasPrecision === precision
      ? old.averagePrice
      : averagePriceText(state, side, precision);
  const tradeIDs = old?.tradeIDs !== undefined && sameIds(was?.tradeIds, side.tradeIds) ? old.tradeIDs : side.tradeIds.map(String);
  return { units, averagePrice, tradeIDs, pl, resettablePL, financing };
}

/**
 * Σ units × price / Σ units of the side's open trades. A side of one trade (most are) averages to
 * that trade's price, which its fill printed at the instrument's precision: no division.
 */
export function averagePriceText(state: AccountState, side: PositionSideRecord, precision: number): string {
  if (side.tradeIds.length === 1) {
    const trade = state.trades.get(side.tradeIds[0] as number);
    if (trade !== undefined && fractionDigits(trade.price) === precision) return trade.price;
  }
  return formatFixed(sideCost(side).dividedBy(sideUnits(side)), precision);
}

/** A side's units as v20 prints them: its safe integer's digits (what formatUnits prints of it) without a Decimal. */
function unitsText(side: PositionSideRecord): string {
  return Number.isNaN(side.unitsInt) ? formatUnits(sideUnits(side)) : String(side.unitsInt);
}

function sameIds(a: readonly number[] | undefined, b: readonly number[]): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** The PositionSide resource in v20's field order, from its texts and unrealized P/L. */
export function sideJson(texts: SideTexts, unrealizedPL: string): Json {
  const view: Json = { units: texts.units };
  if (texts.averagePrice !== undefined) view['averagePrice'] = texts.averagePrice;
  if (texts.tradeIDs !== undefined) view['tradeIDs'] = texts.tradeIDs.slice();
  view['pl'] = texts.pl;
  view['unrealizedPL'] = unrealizedPL;
  view['resettablePL'] = texts.resettablePL;
  view['financing'] = texts.financing;
  view['dividendAdjustment'] = '0.0000';
  view['guaranteedExecutionFees'] = '0.0000';
  return view;
}

/** A position's figures that change only with transactions. */
export interface PositionTexts {
  readonly instrument: string;
  readonly long: SideTexts;
  readonly short: SideTexts;
  readonly pl: string;
  readonly resettablePL: string;
  readonly financing: string;
}

/** A position's texts, the copy of the position they were printed from and the instrument's precision then (positionTexts' `before`). */
export interface PrintedPosition {
  readonly texts: PositionTexts;
  readonly from: PositionRecord;
  readonly precision: number;
}

export function positionTexts(state: AccountState, position: PositionRecord, before?: PrintedPosition): PositionTexts {
  const { long, short, instrument } = position;
  const longTexts = sideTexts(state, instrument, long, before?.texts.long, before?.from.long, before?.precision);
  const shortTexts = sideTexts(state, instrument, short, before?.texts.short, before?.from.short, before?.precision);
  const pl =
    before !== undefined && samePL(before.from.long, long) && samePL(before.from.short, short)
      ? before.texts.pl
      : plSumText(long, longTexts.pl, short, shortTexts.pl);
  return {
    instrument,
    long: longTexts,
    short: shortTexts,
    pl,
    resettablePL: pl,
    financing: unchanged(before, position, 'financing')
      ? (before as PrintedPosition).texts.financing
      : sumText(long.financing, longTexts.financing, short.financing, shortTexts.financing),
  };
}

/** Whether both sides hold the Decimals the texts were printed from: their sum prints the same. */
function unchanged(before: PrintedPosition | undefined, position: PositionRecord, pick: 'financing'): boolean {
  return before !== undefined && before.from.long[pick] === position.long[pick] && before.from.short[pick] === position.short[pick];
}

/** The text of a + b from the texts of a and b when one of them is zero (most positions are one-sided). */
function sumText(a: Decimal, aText: string, b: Decimal, bText: string): string {
  if (b.isZero()) return aText;
  if (a.isZero()) return bText;
  return formatAccountUnits(a.plus(b));
}

/** The two sides' realized P/L together: their integers added when both keep one, else sumText of their Decimals. */
export function plSumText(a: RealizedPL, aText: string, b: RealizedPL, bText: string): string {
  if (b.plInt === 0) return aText;
  if (a.plInt === 0) return bText;
  const sum = a.plInt + b.plInt;
  return Number.isSafeInteger(sum) ? formatScaled(sum, PL_DECIMALS) : sumText(plOf(a), aText, plOf(b), bText);
}

/** A position's price-dependent figures: long and short unrealized P/L and their sum (from the P/L alone), then margin used. */
export const UNREALIZED_FIGURES: ReadonlyArray<(v: UnrealizedPL) => string> = [
  (v) => formatAccountUnits(v.longUnrealizedPL),
  (v) => formatAccountUnits(v.shortUnrealizedPL),
  (v) => formatAccountUnits(v.longUnrealizedPL.plus(v.shortUnrealizedPL)),
];
/** The index of margin used among a position's figures, after UNREALIZED_FIGURES. */
export const MARGIN_USED_FIGURE = 3;

/** Figure `index` of a position (UNREALIZED_FIGURES, then margin used). */
export function positionFigure(v: PositionValuation, index: number): string {
  return index === MARGIN_USED_FIGURE ? formatAccountUnits(v.marginUsed) : (UNREALIZED_FIGURES[index] as (v: UnrealizedPL) => string)(v);
}

/**
 * The Position resource in v20's field order, from its texts and its four figures (positionFigure).
 * A flat position (no units on either side) has no marginUsed, as live servers print it (captures
 * of GET /v3/accounts/{id}: every flat position ends at unrealizedPL).
 */
export function positionJson(texts: PositionTexts, figure: (index: number) => string): Json {
  const view: Json = {
    instrument: texts.instrument,
    long: sideJson(texts.long, figure(0)),
    short: sideJson(texts.short, figure(1)),
    pl: texts.pl,
    resettablePL: texts.resettablePL,
    financing: texts.financing,
    commission: '0.0000',
    dividendAdjustment: '0.0000',
    guaranteedExecutionFees: '0.0000',
    unrealizedPL: figure(2),
  };
  if (texts.long.units !== '0' || texts.short.units !== '0') view['marginUsed'] = figure(3);
  return view;
}

export function positionView(state: AccountState, position: PositionRecord): Json {
  const v = valuePosition(state, position);
  return positionJson(positionTexts(state, position), (i) => positionFigure(v, i));
}

export function isOpenPosition(position: PositionRecord): boolean {
  return sideIsOpen(position.long) || sideIsOpen(position.short);
}

function openPositionCount(state: AccountState): number {
  let n = 0;
  for (const p of state.positions.values()) if (isOpenPosition(p)) n += 1;
  return n;
}

/** The AccountSummary's price-dependent fields in v20's order, each printed from the valuation. */
export const CALCULATED_FIELDS: ReadonlyArray<readonly [string, (v: AccountValuation) => string]> = [
  ['unrealizedPL', (v) => formatAccountUnits(v.unrealizedPL)],
  ['NAV', (v) => formatAccountUnits(v.NAV)],
  ['marginUsed', (v) => formatAccountUnits(v.marginUsed)],
  ['marginAvailable', (v) => formatAccountUnits(v.marginAvailable)],
  ['positionValue', (v) => formatAccountUnits(v.positionValue)],
  ['marginCloseoutUnrealizedPL', (v) => formatAccountUnits(v.marginCloseoutUnrealizedPL)],
  ['marginCloseoutNAV', (v) => formatAccountUnits(v.marginCloseoutNAV)],
  ['marginCloseoutMarginUsed', (v) => formatAccountUnits(v.marginCloseoutMarginUsed)],
  ['marginCloseoutPercent', (v) => formatFixed(v.marginCloseoutPercent, 5)],
  ['marginCloseoutPositionValue', (v) => formatAccountUnits(v.marginCloseoutPositionValue)],
  ['withdrawalLimit', (v) => formatAccountUnits(v.withdrawalLimit)],
  ['marginCallMarginUsed', (v) => formatAccountUnits(v.marginCallMarginUsed)],
  ['marginCallPercent', (v) => formatFixed(v.marginCallPercent, 5)],
];

/** The AccountSummary's calculated fields now (also AccountChangesState's). */
export function calculatedFields(state: AccountState): Json {
  const v = valueAccount(state);
  const view: Json = {};
  for (const [name, print] of CALCULATED_FIELDS) view[name] = print(v);
  return view;
}

/**
 * The AccountSummary's fields that change only with transactions: `head` before the calculated
 * fields, `tail` after them (the margin call fields and lastTransactionID).
 */
export interface SummaryTexts {
  readonly head: Readonly<Json>;
  readonly tail: Readonly<Json>;
}

/** `shownRate`: shownMarginRate(state), which a caller may keep (it walks the instruments). */
export function summaryTexts(state: AccountState, shownRate: string | undefined = shownMarginRate(state)): SummaryTexts {
  const pl = plText(state);
  const head: Json = {
    id: state.id,
    alias: state.alias,
    currency: state.currency,
    balance: formatAccountUnits(balanceOf(state)),
    createdByUserID: state.userID,
    createdTime: state.createdTime,
    guaranteedStopLossOrderMode: 'DISABLED',
    pl,
    // Nothing resets the resettable P/L (realized-pl.ts): it is the P/L.
    resettablePL: pl,
    resettablePLTime: '0',
    financing: formatAccountUnits(state.financing),
    commission: formatAccountUnits(state.commission),
    // No instrument of the catalogue pays dividends; v20 prints the account's total as "0".
    dividendAdjustment: '0',
    guaranteedExecutionFees: '0.0000',
  };
  if (shownRate !== undefined) head['marginRate'] = shownRate;
  head['openTradeCount'] = state.openTradeCount;
  head['openPositionCount'] = openPositionCount(state);
  head['pendingOrderCount'] = state.pendingCount;
  head['hedgingEnabled'] = state.hedgingEnabled;
  const tail: Json = {};
  const call = state.marginCall;
  if (call !== undefined) {
    // Only while the account is in a margin call (definitions: "Only provided if the Account is in a margin call").
    tail['marginCallEnterTime'] = call.enterTime;
    tail['marginCallExtensionCount'] = call.extensionCount;
    if (call.lastExtensionTime !== undefined) tail['lastMarginCallExtensionTime'] = call.lastExtensionTime;
  }
  tail['lastTransactionID'] = String(state.lastTransactionID);
  return { head, tail };
}

/** The AccountSummary in v20's field order, from its texts and the calculated fields. */
export function summaryJson(texts: SummaryTexts, calculated: Json): Json {
  return { ...texts.head, ...calculated, ...texts.tail };
}

export function accountSummaryView(state: AccountState): Json {
  return summaryJson(summaryTexts(state), calculatedFields(state));
}
