import { formatAccountUnits, formatFixed, formatUnits, type Decimal } from '../domain/decimal.js';
import { formatPriceInt } from '../domain/price.js';
import { DEFAULT_ENUM_SPELLING, orderResourceValue, type EnumSpelling } from '../domain/enum-spelling.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import { ORDER_TYPE_RULES } from '../domain/order-types.js';
import type { Transaction } from '../domain/transactions.js';
import type { AccountState, OrderRecord, TradeRecord } from './state.js';
import { tradeMarginUsed, tradeUnrealizedPL, valuePosition } from './valuation.js';

/**
 * The account as v20 resources: Order, Trade, TradeSummary, Position, AccountSummary, Account,
 * AccountChanges and AccountChangesState. Views are computed on request from the book and the
 * latest quotes; nothing here changes state. Views that hold Order resources take the
 * EnumSpelling of their DEFAULT values (domain/enum-spelling.ts; transactions are never respelled).
 */
import { accountSummaryView, calculatedFields, displayPrecision, isOpenPosition, positionView, type Json } from './summary-views.js';
import { openTradeRecords, pendingOrderRecords } from './live-records.js';

export { accountSummaryView, isOpenPosition, positionView, type Json };

const ORDER_REQUEST_FIELDS = [
  'tradeID',
  'clientTradeID',
  'instrument',
  'units',
  'price',
  'distance',
  'priceBound',
  'timeInForce',
  'gtdTime',
  'positionFill',
  'triggerCondition',
  'initialMarketPrice',
  'tradeClose',
  'longPositionCloseout',
  'shortPositionCloseout',
  'takeProfitOnFill',
  'stopLossOnFill',
  'trailingStopLossOnFill',
] as const;

export function orderView(state: AccountState, order: OrderRecord, spelling: EnumSpelling = DEFAULT_ENUM_SPELLING): Json {
  const tx = order.create as unknown as Record<string, unknown>;
  const view: Json = { id: String(order.id), createTime: order.create.time, type: order.type };
  for (const field of ORDER_REQUEST_FIELDS) {
    if (tx[field] !== undefined) view[field] = tx[field];
  }
  // The creation transaction holds DEFAULT; the Order resource spells it by context (v3-interface.md 2.3).
  if (view['positionFill'] !== undefined) view['positionFill'] = orderResourceValue('positionFill', view['positionFill'], spelling);
  if (view['triggerCondition'] !== undefined)
    view['triggerCondition'] = orderResourceValue('triggerCondition', view['triggerCondition'], spelling);
  // Resting entry orders (LIMIT, STOP, MARKET_IF_TOUCHED) carry v20's partialFill default.
  const rule = ORDER_TYPE_RULES[order.type];
  if (rule.kind === 'ENTRY' && rule.trigger !== null) view['partialFill'] = orderResourceValue('partialFill', 'DEFAULT', spelling);
  if (order.clientExtensions !== undefined) view['clientExtensions'] = order.clientExtensions;
  if (order.tradeClientExtensions !== undefined) view['tradeClientExtensions'] = order.tradeClientExtensions;
  if (order.trailing !== undefined && !Number.isNaN(order.trailing.value2)) {
    const precision = displayPrecision(state, order.instrument);
    // Doubled units: a MID-watched stop may sit half a tick off the grid; it is shown rounded down.
    view['trailingStopValue'] = formatPriceInt(Math.floor(order.trailing.value2 / 2), precision);
  }
  view['state'] = order.state;
  if (order.create.replacesOrderID !== undefined) view['replacesOrderID'] = order.create.replacesOrderID;
  if (order.state === 'FILLED') {
    if (order.fillingTransactionID !== undefined) view['fillingTransactionID'] = order.fillingTransactionID;
    if (order.filledTime !== undefined) view['filledTime'] = order.filledTime;
    if (order.tradeOpenedID !== undefined) view['tradeOpenedID'] = order.tradeOpenedID;
    if (order.tradeReducedID !== undefined) view['tradeReducedID'] = order.tradeReducedID;
    if (order.tradeClosedIDs !== undefined) view['tradeClosedIDs'] = order.tradeClosedIDs;
  }
  if (order.state === 'CANCELLED') {
    if (order.cancellingTransactionID !== undefined) view['cancellingTransactionID'] = order.cancellingTransactionID;
    if (order.cancelledTime !== undefined) view['cancelledTime'] = order.cancelledTime;
    if (order.replacedByOrderID !== undefined) view['replacedByOrderID'] = order.replacedByOrderID;
  }
  return view;
}

/**
 * Σ |units closed| × close price / Σ |units closed| over the trade's reductions, at the
 * instrument's display precision; undefined while nothing of it was closed.
 */
function averageClosePrice(state: AccountState, trade: TradeRecord): string | undefined {
  let units: Decimal | undefined;
  let value: Decimal | undefined;
  for (const reduce of trade.reductions) {
    const size = state.memo.decimals.of(reduce.units).abs();
    const amount = size.times(state.memo.decimals.of(reduce.price));
    units = units === undefined ? size : units.plus(size);
    value = value === undefined ? amount : value.plus(amount);
  }
  if (units === undefined || value === undefined || units.isZero()) return undefined;
  const precision = displayPrecision(state, trade.instrument);
  return formatFixed(value.dividedBy(units), precision);
}

function tradeScalars(state: AccountState, trade: TradeRecord): Json {
  const view: Json = {
    id: String(trade.id),
    instrument: trade.instrument,
    price: trade.price,
    openTime: trade.openTime,
    state: trade.state,
    initialUnits: formatUnits(trade.initialUnits),
    initialMarginRequired: trade.initialMarginRequired,
    currentUnits: formatUnits(trade.currentUnits),
    realizedPL: formatAccountUnits(trade.realizedPL),
  };
  if (trade.state === 'OPEN') {
    view['unrealizedPL'] = formatAccountUnits(tradeUnrealizedPL(state, trade));
    view['marginUsed'] = formatAccountUnits(tradeMarginUsed(state, trade));
  }
  const average = averageClosePrice(state, trade);
  if (average !== undefined) view['averageClosePrice'] = average;
  if (trade.closingTransactionIDs.length > 0) view['closingTransactionIDs'] = trade.closingTransactionIDs;
  view['financing'] = formatAccountUnits(trade.financing);
  view['dividendAdjustment'] = '0.0000';
  if (trade.closeTime !== undefined) view['closeTime'] = trade.closeTime;
  if (trade.clientExtensions !== undefined) view['clientExtensions'] = trade.clientExtensions;
  return view;
}

export function tradeSummaryView(state: AccountState, trade: TradeRecord): Json {
  const view = tradeScalars(state, trade);
  if (trade.takeProfitOrderID !== undefined) view['takeProfitOrderID'] = String(trade.takeProfitOrderID);
  if (trade.stopLossOrderID !== undefined) view['stopLossOrderID'] = String(trade.stopLossOrderID);
  if (trade.trailingStopLossOrderID !== undefined) view['trailingStopLossOrderID'] = String(trade.trailingStopLossOrderID);
  return view;
}

export function tradeView(state: AccountState, trade: TradeRecord, spelling: EnumSpelling = DEFAULT_ENUM_SPELLING): Json {
  const view = tradeScalars(state, trade);
  const attach = (key: string, id: number | undefined): void => {
    const order = id === undefined ? undefined : state.orders.get(id);
    if (order !== undefined) view[key] = orderView(state, order, spelling);
  };
  attach('takeProfitOrder', trade.takeProfitOrderID);
  attach('stopLossOrder', trade.stopLossOrderID);
  attach('trailingStopLossOrder', trade.trailingStopLossOrderID);
  return view;
}

/** The pending orders, oldest first (the library's name for live-records' list). */
export const pendingOrders: (state: AccountState) => OrderRecord[] = pendingOrderRecords;

export function accountView(state: AccountState, spelling: EnumSpelling = DEFAULT_ENUM_SPELLING): Json {
  const view = accountSummaryView(state);
  const trades: Json[] = [];
  for (const trade of openTradeRecords(state)) trades.push(tradeSummaryView(state, trade));
  const positions: Json[] = [];
  for (const position of state.positions.values()) positions.push(positionView(state, position));
  view['trades'] = trades;
  view['positions'] = positions;
  view['orders'] = pendingOrderRecords(state).map((o) => orderView(state, o, spelling));
  return view;
}

/** AccountChangesState: the price-dependent figures now, per trade, position and trailing stop. */
export function accountChangesStateView(state: AccountState): Json {
  const view = calculatedFields(state);
  const orders: Json[] = [];
  for (const order of pendingOrderRecords(state)) {
    if (order.trailing === undefined || Number.isNaN(order.trailing.value2)) continue;
    const precision = displayPrecision(state, order.instrument);
    const slot = state.prices.get(order.instrument);
    const watched2 =
      slot === undefined
        ? 0
        : order.trailing.source === 0
          ? 2 * slot.bid
          : order.trailing.source === 1
            ? 2 * slot.ask
            : slot.bid + slot.ask;
    orders.push({
      id: String(order.id),
      trailingStopValue: formatPriceInt(Math.floor(order.trailing.value2 / 2), precision),
      triggerDistance: formatPriceInt(Math.floor(Math.abs(watched2 - order.trailing.value2) / 2), precision),
      isTriggerDistanceExact: true,
    });
  }
  const trades: Json[] = [];
  for (const trade of openTradeRecords(state)) {
    trades.push({
      id: String(trade.id),
      unrealizedPL: formatAccountUnits(tradeUnrealizedPL(state, trade)),
      marginUsed: formatAccountUnits(tradeMarginUsed(state, trade)),
    });
  }
  const positions: Json[] = [];
  for (const position of state.positions.values()) {
    if (!isOpenPosition(position)) continue;
    const v = valuePosition(state, position);
    positions.push({
      instrument: position.instrument,
      netUnrealizedPL: formatAccountUnits(v.longUnrealizedPL.plus(v.shortUnrealizedPL)),
      longUnrealizedPL: formatAccountUnits(v.longUnrealizedPL),
      shortUnrealizedPL: formatAccountUnits(v.shortUnrealizedPL),
      marginUsed: formatAccountUnits(v.marginUsed),
    });
  }
  view['orders'] = orders;
  view['trades'] = trades;
  view['positions'] = positions;
  return view;
}

/**
 * AccountChanges since a transaction ID, from the transactions after it: orders created, filled,
 * cancelled (as they are now), trades opened, reduced and closed, the positions touched.
 */
export function accountChangesView(
  state: AccountState,
  since: readonly Transaction[],
  spelling: EnumSpelling = DEFAULT_ENUM_SPELLING,
): Json {
  const created = new Set<number>();
  const filled = new Set<number>();
  const cancelled = new Set<number>();
  const opened = new Set<number>();
  const reduced = new Set<number>();
  const closed = new Set<number>();
  const instruments = new Set<string>();
  for (const tx of since) {
    if (tx.type.endsWith('_ORDER')) created.add(Number(tx.id));
    else if (tx.type === 'ORDER_FILL') {
      filled.add(Number(tx.orderID));
      instruments.add(tx.instrument);
      if (tx.tradeOpened !== undefined) opened.add(Number(tx.tradeOpened.tradeID));
      if (tx.tradeReduced !== undefined) reduced.add(Number(tx.tradeReduced.tradeID));
      for (const c of tx.tradesClosed ?? []) closed.add(Number(c.tradeID));
    } else if (tx.type === 'ORDER_CANCEL') cancelled.add(Number(tx.orderID));
  }
  const orders = (ids: Set<number>, keep: (o: OrderRecord) => boolean): Json[] => {
    const out: Json[] = [];
    for (const id of ids) {
      const o = state.orders.get(id);
      if (o !== undefined && keep(o)) out.push(orderView(state, o, spelling));
    }
    return out;
  };
  const trades = (ids: Set<number>): Json[] => {
    const out: Json[] = [];
    for (const id of ids) {
      const t = state.trades.get(id);
      if (t !== undefined) out.push(tradeSummaryView(state, t));
    }
    return out;
  };
  const positions: Json[] = [];
  for (const instrument of instruments) {
    const p = state.positions.get(instrument);
    if (p !== undefined) positions.push(positionView(state, p));
  }
  return {
    // Every order created in the window, as it is now: "These Orders may have been filled,
    // cancelled or triggered in the same period" (AccountChanges.ordersCreated, oanda-v20-openapi.json).
    ordersCreated: orders(created, () => true),
    ordersCancelled: orders(cancelled, (o) => o.state === 'CANCELLED'),
    ordersFilled: orders(filled, (o) => o.state === 'FILLED'),
    ordersTriggered: [],
    tradesOpened: trades(opened),
    tradesReduced: trades(reduced),
    tradesClosed: trades(closed),
    positions,
    transactions: since,
  };
}

/**
 * An instrument's tags as live servers list them for its type (captures of GET /instruments, 2022-2024:
 * every currency pair, and a metal); a CFD's depend on what it tracks (an index, a bond, a
 * commodity), which the catalogue does not say, so it has none.
 */
function tagsOf(type: InstrumentSpec['type']): Json[] {
  if (type === 'CURRENCY')
    return [
      { type: 'ASSET_CLASS', name: 'CURRENCY' },
      { type: 'BRAIN_ASSET_CLASS', name: 'FX' },
    ];
  if (type === 'METAL')
    return [
      { type: 'ASSET_CLASS', name: 'COMMODITY' },
      { type: 'KID_ASSET_CLASS', name: 'METAL' },
      { type: 'BRAIN_ASSET_CLASS', name: 'METAL' },
    ];
  return [];
}

/** The v20 Instrument resource of a catalogue entry, as GET /instruments serves it. */
export function instrumentView(spec: InstrumentSpec): Json {
  return {
    name: spec.name,
    type: spec.type,
    displayName: spec.displayName,
    pipLocation: spec.pipLocation,
    displayPrecision: spec.displayPrecision,
    tradeUnitsPrecision: spec.tradeUnitsPrecision,
    minimumTradeSize: spec.minimumTradeSize,
    maximumTrailingStopDistance: spec.maximumTrailingStopDistance,
    minimumTrailingStopDistance: spec.minimumTrailingStopDistance,
    maximumPositionSize: spec.maximumPositionSize,
    maximumOrderUnits: spec.maximumOrderUnits,
    marginRate: spec.marginRate,
    guaranteedStopLossOrderMode: 'DISABLED',
    tags: tagsOf(spec.type),
    financing: {
      longRate: spec.financing.longRate,
      shortRate: spec.financing.shortRate,
      financingDaysOfWeek: spec.financing.financingDaysOfWeek,
    },
  };
}
