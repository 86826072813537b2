import { Decimal, ZERO } from '../domain/decimal.js';
import { parseScaled } from '../domain/scaled-int.js';
import { nextNewYorkFivePm, parseDateTime } from '../domain/time.js';
import type {
  ClientConfigureTransaction,
  CreateTransaction,
  OrderCancelTransaction,
  OrderClientExtensionsModifyTransaction,
  OrderFillTransaction,
  OrderTransaction,
  TradeClientExtensionsModifyTransaction,
  TradeOpen,
  TradeReduce,
  Transaction,
  TransferFundsTransaction,
  DailyFinancingTransaction,
  MarginCallExtendTransaction,
  MarginCallTransaction,
} from '../domain/transactions.js';
import type { JournalEntry, TrailingStopValueRecord } from '../domain/journal-entry.js';
import { ORDER_TYPE_RULES, isEntryType, orderTypeOfTransaction, type OrderType } from '../domain/order-types.js';
import { transitionOrder } from '../orders/lifecycle.js';
import { markMarginStale, movesMarginLevels } from './margin-watch.js';
import { evolveTransactionsLost } from './transactions-lost.js';
import { noteOpenTrade, notePendingOrder } from './live-records.js';
import { placeInIndex, removeFromIndex, trailingValue2 } from './placement.js';
import { addRealized } from './realized-pl.js';
import { addToSide, clearSums } from './side-sums.js';
import { positionOf, type AccountState, type OrderRecord, type PositionRecord, type TradeRecord } from './state.js';

/**
 * Folds one journal entry into the account. This is the only code that changes an account's
 * book: decide() emits transactions and the batch applies each through here before deciding the
 * next step (so later steps of a batch see earlier ones), and a restart replays the journal
 * through here, so live and replayed state cannot drift apart. It reads nothing but the state and
 * the entry: what the market did to a trailing stop arrives as a TRAILING_STOP_VALUE record.
 */
export function evolve(state: AccountState, entry: JournalEntry): AccountState {
  if (entry.type === 'TRAILING_STOP_VALUE') return evolveTrailingStopValue(state, entry);
  if (entry.type === 'TRANSACTIONS_LOST') return evolveTransactionsLost(state, entry);
  const id = Number(entry.id);
  if (id !== state.lastTransactionID + 1) {
    throw new Error(`journal gap: transaction ${entry.id} after ${state.lastTransactionID}`);
  }
  state.lastTransactionID = id;
  // Checked exactly at the next quote; order-only transactions keep the price bands (margin-watch.ts).
  if (movesMarginLevels(entry.type)) markMarginStale(state);
  return evolveTransaction(state, entry);
}

function evolveTransaction(state: AccountState, tx: Transaction): AccountState {
  switch (tx.type) {
    case 'CREATE':
      return evolveCreate(state, tx);
    case 'TRANSFER_FUNDS':
      return evolveTransfer(state, tx);
    case 'CLIENT_CONFIGURE':
      return evolveConfigure(state, tx);
    case 'MARKET_ORDER':
    case 'LIMIT_ORDER':
    case 'STOP_ORDER':
    case 'MARKET_IF_TOUCHED_ORDER':
    case 'TAKE_PROFIT_ORDER':
    case 'STOP_LOSS_ORDER':
    case 'TRAILING_STOP_LOSS_ORDER':
      return evolveOrderCreate(state, tx, orderTypeOfTransaction(tx.type));
    case 'ORDER_FILL':
      return evolveFill(state, tx);
    case 'ORDER_CANCEL':
      return evolveCancel(state, tx);
    case 'ORDER_CLIENT_EXTENSIONS_MODIFY':
      return evolveOrderExtensions(state, tx);
    case 'TRADE_CLIENT_EXTENSIONS_MODIFY':
      return evolveTradeExtensions(state, tx);
    case 'DAILY_FINANCING':
      return evolveFinancing(state, tx);
    case 'MARGIN_CALL_ENTER':
    case 'MARGIN_CALL_EXTEND':
    case 'MARGIN_CALL_EXIT':
      return evolveMarginCall(state, tx);
    // Rejections change nothing but the transaction counter.
    case 'MARKET_ORDER_REJECT':
    case 'LIMIT_ORDER_REJECT':
    case 'STOP_ORDER_REJECT':
    case 'MARKET_IF_TOUCHED_ORDER_REJECT':
    case 'TAKE_PROFIT_ORDER_REJECT':
    case 'STOP_LOSS_ORDER_REJECT':
    case 'TRAILING_STOP_LOSS_ORDER_REJECT':
    case 'ORDER_CANCEL_REJECT':
    case 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT':
    case 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT':
    case 'CLIENT_CONFIGURE_REJECT':
    case 'TRANSFER_FUNDS_REJECT':
      return state;
    default:
      return assertNever(tx);
  }
}

function assertNever(tx: never): never {
  throw new Error(`evolve: unknown transaction type ${(tx as { type?: unknown }).type as string}`);
}

/** A trailing stop's new level, as the journal recorded it. */
function evolveTrailingStopValue(state: AccountState, record: TrailingStopValueRecord): AccountState {
  const order = requireOrder(state, record.orderID);
  const trailing = order.trailing;
  if (order.state !== 'PENDING' || trailing === undefined)
    throw new Error(`trailing stop value for order ${record.orderID}, which is no pending trailing stop`);
  trailing.value2 = trailingValue2(state, order.instrument, record.trailingStopValue);
  return state;
}

function setBalance(state: AccountState, text: string): void {
  if (text === state.balanceText) return;
  state.balance = undefined;
  state.balanceFloat = Number(text);
  state.balanceText = text;
}

function evolveCreate(state: AccountState, tx: CreateTransaction): AccountState {
  state.currency = tx.homeCurrency;
  state.createdTime = tx.time;
  return state;
}

function evolveTransfer(state: AccountState, tx: TransferFundsTransaction): AccountState {
  if (tx.accountBalance !== undefined) setBalance(state, tx.accountBalance);
  state.marginCloseoutBlocked = false;
  return state;
}

/** The margin call state, rebuilt from its transactions alone, so a replayed account shows what the live one did. */
function evolveMarginCall(state: AccountState, tx: MarginCallTransaction | MarginCallExtendTransaction): AccountState {
  if (tx.type === 'MARGIN_CALL_ENTER') state.marginCall = { enterTime: tx.time, extensionCount: 0, lastExtensionTime: undefined };
  else if (tx.type === 'MARGIN_CALL_EXIT') state.marginCall = undefined;
  else if (tx.type === 'MARGIN_CALL_EXTEND' && state.marginCall !== undefined) {
    state.marginCall.extensionCount = tx.extensionNumber;
    state.marginCall.lastExtensionTime = tx.time;
  }
  return state;
}

function isMarginCloseout(order: OrderRecord): boolean {
  return order.create.reason === 'MARGIN_CLOSEOUT';
}

function evolveConfigure(state: AccountState, tx: ClientConfigureTransaction): AccountState {
  state.marginCloseoutBlocked = false;
  if (tx.alias !== undefined) state.alias = tx.alias;
  if (tx.marginRate !== undefined) state.marginRate = tx.marginRate;
  return state;
}

function evolveOrderCreate(state: AccountState, tx: OrderTransaction, type: OrderType): AccountState {
  const tradeId = tx.tradeID === undefined ? undefined : Number(tx.tradeID);
  const trade = tradeId === undefined ? undefined : state.trades.forUpdate(tradeId);
  const instrument = tx.instrument ?? trade?.instrument;
  if (instrument === undefined) throw new Error(`order ${tx.id} has neither instrument nor trade`);
  // A dependent order closes its trade, so it trades against the trade's direction.
  const isBuy = trade !== undefined ? trade.currentUnits.isNegative() : !(tx.units ?? '0').startsWith('-');
  const order: OrderRecord = {
    id: Number(tx.id),
    type,
    state: 'PENDING',
    create: tx,
    instrument,
    isBuy,
    tradeId,
    clientExtensions: tx.clientExtensions,
    tradeClientExtensions: tx.tradeClientExtensions,
    gtd: expiryOf(tx),
    trigger: undefined,
    trailing: undefined,
    initialMarketPrice: (tx as { initialMarketPrice?: string }).initialMarketPrice,
  };
  state.orders.set(order.id, order);
  if (order.clientExtensions?.id !== undefined) state.clientOrderIds.set(order.clientExtensions.id, order.id);
  if (ORDER_TYPE_RULES[type].trigger === null) return state; // a MARKET order: filled or cancelled within this batch
  state.pendingCount += 1;
  notePendingOrder(state, order.id);
  if (trade !== undefined && !isEntryType(type)) {
    if (type === 'TAKE_PROFIT') trade.takeProfitOrderID = order.id;
    else if (type === 'STOP_LOSS') trade.stopLossOrderID = order.id;
    else trade.trailingStopLossOrderID = order.id;
  }
  placeInIndex(state, order);
  if (order.gtd !== undefined) state.deadlines.push(order.gtd, order.id);
  return state;
}

/** GTD orders end at their gtdTime, GFD orders at the next 17:00 New York after creation. */
function expiryOf(tx: OrderTransaction): number | undefined {
  if (tx.timeInForce === 'GTD' && tx.gtdTime !== undefined) return parseDateTime(tx.gtdTime) ?? undefined;
  if (tx.timeInForce === 'GFD') {
    const created = parseDateTime(tx.time);
    return created === null ? undefined : nextNewYorkFivePm(created);
  }
  return undefined;
}

function finishOrder(state: AccountState, order: OrderRecord): void {
  state.orders.ended(order.id);
  if (ORDER_TYPE_RULES[order.type].trigger !== null) {
    state.pendingCount -= 1;
    removeFromIndex(state, order);
  }
  // The client ID stays indexed: @clientID finds an ended order, no later order takes it (state.ts clientOrderIds).
  const trade = order.tradeId === undefined ? undefined : state.trades.forUpdate(order.tradeId);
  if (trade !== undefined) {
    if (trade.takeProfitOrderID === order.id) trade.takeProfitOrderID = undefined;
    if (trade.stopLossOrderID === order.id) trade.stopLossOrderID = undefined;
    if (trade.trailingStopLossOrderID === order.id) trade.trailingStopLossOrderID = undefined;
  }
}

function requireOrder(state: AccountState, orderID: string): OrderRecord {
  const order = state.orders.forUpdate(Number(orderID));
  if (order === undefined) throw new Error(`transaction refers to unknown order ${orderID}`);
  return order;
}

function evolveCancel(state: AccountState, tx: OrderCancelTransaction): AccountState {
  const order = requireOrder(state, tx.orderID);
  order.state = transitionOrder(order.type, order.state, 'CANCEL');
  order.cancellingTransactionID = tx.id;
  order.cancelledTime = tx.time;
  if (tx.replacedByOrderID !== undefined) order.replacedByOrderID = tx.replacedByOrderID;
  // A margin closeout that could not fill is not tried again until the book or the funds change.
  if (isMarginCloseout(order)) state.marginCloseoutBlocked = true;
  finishOrder(state, order);
  return state;
}

function evolveOrderExtensions(state: AccountState, tx: OrderClientExtensionsModifyTransaction): AccountState {
  const order = requireOrder(state, tx.orderID as string);
  order.state = transitionOrder(order.type, order.state, 'MODIFY');
  if (tx.clientExtensionsModify !== undefined) {
    const oldId = order.clientExtensions?.id;
    if (oldId !== undefined && state.clientOrderIds.get(oldId) === order.id) state.clientOrderIds.delete(oldId);
    order.clientExtensions = { ...order.clientExtensions, ...tx.clientExtensionsModify };
    const newId = order.clientExtensions.id;
    if (newId !== undefined) state.clientOrderIds.set(newId, order.id);
  }
  if (tx.tradeClientExtensionsModify !== undefined) {
    order.tradeClientExtensions = { ...order.tradeClientExtensions, ...tx.tradeClientExtensionsModify };
  }
  return state;
}

function evolveTradeExtensions(state: AccountState, tx: TradeClientExtensionsModifyTransaction): AccountState {
  const trade = state.trades.forUpdate(Number(tx.tradeID));
  if (trade === undefined) throw new Error(`transaction refers to unknown trade ${tx.tradeID}`);
  const oldId = trade.clientExtensions?.id;
  if (oldId !== undefined && state.clientTradeIds.get(oldId) === trade.id) state.clientTradeIds.delete(oldId);
  trade.clientExtensions = { ...trade.clientExtensions, ...tx.tradeClientExtensionsModify };
  if (trade.clientExtensions.id !== undefined) state.clientTradeIds.set(trade.clientExtensions.id, trade.id);
  return state;
}

function evolveFinancing(state: AccountState, tx: DailyFinancingTransaction): AccountState {
  setBalance(state, tx.accountBalance);
  state.marginCloseoutBlocked = false;
  const total = new Decimal(tx.financing);
  state.financing = state.financing.plus(total);
  for (const pf of tx.positionFinancings) {
    const position = positionOf(state, pf.instrument);
    for (const otf of pf.openTradeFinancings) {
      const trade = state.trades.forUpdate(Number(otf.tradeID));
      if (trade === undefined) continue;
      const amount = new Decimal(otf.financing);
      trade.financing = trade.financing.plus(amount);
      const side = trade.currentUnits.isPositive() ? position.long : position.short;
      side.financing = side.financing.plus(amount);
    }
  }
  return state;
}

function evolveFill(state: AccountState, tx: OrderFillTransaction): AccountState {
  const order = requireOrder(state, tx.orderID);
  order.state = transitionOrder(order.type, order.state, 'FILL');
  order.fillingTransactionID = tx.id;
  order.filledTime = tx.time;
  if (!isMarginCloseout(order)) state.marginCloseoutBlocked = false;
  const position = positionOf(state, tx.instrument);
  const closed = tx.tradesClosed;
  if (closed !== undefined) for (const reduce of closed) reduceTrade(state, reduce, tx, true);
  if (tx.tradeReduced !== undefined) reduceTrade(state, tx.tradeReduced, tx, false);
  if (closed !== undefined && closed.length > 0) order.tradeClosedIDs = closed.map((r) => r.tradeID);
  if (tx.tradeReduced !== undefined) order.tradeReducedID = tx.tradeReduced.tradeID;
  const opened = tx.tradeOpened;
  if (opened !== undefined) {
    order.tradeOpenedID = opened.tradeID;
    openTrade(state, tx, opened, position);
  }
  if (tx.pl !== '0.0000') addRealized(state, tx.pl, state.memo.decimals);
  if (tx.financing !== '0.0000') state.financing = state.financing.plus(tx.financing);
  if (tx.commission !== '0.0000') state.commission = state.commission.plus(tx.commission);
  setBalance(state, tx.accountBalance);
  finishOrder(state, order);
  return state;
}

function openTrade(state: AccountState, tx: OrderFillTransaction, opened: TradeOpen, position: PositionRecord): void {
  const units = state.memo.decimals.of(opened.units);
  const unitsInt = parseScaled(opened.units, 0) ?? Number.NaN;
  // Number(text) of a whole number is that number: no second parse.
  const unitsFloat = Number.isNaN(unitsInt) ? Number(opened.units) : unitsInt;
  const trade: TradeRecord = {
    id: Number(opened.tradeID),
    instrument: tx.instrument,
    price: opened.price,
    priceDecimal: undefined,
    openTime: tx.time,
    initialUnits: units,
    initialMarginRequired: opened.initialMarginRequired,
    currentUnits: units,
    unitsInt,
    realizedPL: ZERO,
    financing: ZERO,
    state: 'OPEN',
    closeTime: undefined,
    closingTransactionIDs: [],
    reductions: [],
    clientExtensions: opened.clientExtensions,
    takeProfitOrderID: undefined,
    stopLossOrderID: undefined,
    trailingStopLossOrderID: undefined,
  };
  state.trades.set(trade.id, trade);
  state.openTradeCount += 1;
  noteOpenTrade(state, trade.id);
  if (trade.clientExtensions?.id !== undefined) state.clientTradeIds.set(trade.clientExtensions.id, trade.id);
  const side = units.isPositive() ? position.long : position.short;
  addToSide(side, unitsInt, units, opened.price);
  side.unitsFloat += unitsFloat;
  side.costFloat += unitsFloat * Number(opened.price);
  side.tradeIds.push(trade.id);
}

function reduceTrade(state: AccountState, reduce: TradeReduce, tx: OrderFillTransaction, closes: boolean): void {
  const trade = state.trades.forUpdate(Number(reduce.tradeID));
  if (trade === undefined || trade.state !== 'OPEN') throw new Error(`fill ${tx.id} reduces trade ${reduce.tradeID} that is not open`);
  const position = positionOf(state, trade.instrument);
  const side = trade.currentUnits.isPositive() ? position.long : position.short;
  const units = state.memo.decimals.of(reduce.units); // signed like the fill: opposite to the trade
  const realized = state.memo.decimals.of(reduce.realizedPL);
  const reducedInt = parseScaled(reduce.units, 0);
  const unitsInt = trade.unitsInt + (reducedInt ?? Number.NaN);
  // Whole unit counts that sum to zero say the trade is closed without decimal.js; anything else is added up.
  trade.currentUnits = unitsInt === 0 ? ZERO : trade.currentUnits.plus(units);
  trade.unitsInt = Number.isSafeInteger(unitsInt) ? unitsInt : Number.NaN;
  // A sum starting from zero is the amount itself: the same value without the Decimal addition.
  trade.realizedPL = addTo(trade.realizedPL, realized);
  trade.closingTransactionIDs.push(tx.id);
  // The average close price is worked out when a view asks for it (views.ts): most trades are never viewed closed.
  trade.reductions.push(reduce);
  addRealized(side, reduce.realizedPL, state.memo.decimals);
  let emptied = false;
  if (closes) {
    if (!trade.currentUnits.isZero()) throw new Error(`fill ${tx.id} closes trade ${trade.id} but leaves ${trade.currentUnits.toString()}`);
    trade.state = 'CLOSED';
    trade.closeTime = tx.time;
    state.trades.ended(trade.id);
    state.openTradeCount -= 1;
    const at = side.tradeIds.indexOf(trade.id);
    if (at >= 0) side.tradeIds.splice(at, 1);
    // The client trade ID stays indexed: @clientID finds the closed trade (state.ts clientTradeIds).
    emptied = side.tradeIds.length === 0;
  }
  if (emptied) {
    // The side's last trade closed: nothing is held, whatever the sums would say.
    clearSums(side);
  } else {
    addToSide(side, reducedInt ?? Number.NaN, units, trade.price);
    // Number(text) of a whole number is that number: no second parse.
    const unitsFloat = reducedInt === null ? Number(reduce.units) : reducedInt;
    side.unitsFloat += unitsFloat;
    side.costFloat += unitsFloat * Number(trade.price);
  }
}

/** sum + amount, where a sum still at zero simply becomes the amount (Decimals are immutable). */
function addTo(sum: Decimal, amount: Decimal): Decimal {
  return sum.isZero() ? amount : sum.plus(amount);
}
