import { shaped } from '../../domain/transaction-json.js';
import { ORDER_CANCEL_JSON, ORDER_FILL_JSON } from '../../domain/transaction-shapes.js';
import type { OrderCancelTransaction, OrderFillTransaction, TradeOpen, TradeReduce } from '../../domain/transactions.js';
import type { Batch } from '../batch.js';
import type { OrderRecord, PriceSlot, TradeRecord } from '../state.js';
import type { FillAmounts, OpeningAmounts, ReductionAmounts } from './amounts.js';
import type { FillRequest } from './plan.js';
import { homeConversionFactors as homeFactorsOf } from '../home-currency.js';
import { fillPrice } from './quote.js';

// The transactions of a fill. Each is one object literal (plus the optional fields in v20 order),
// so every fill of a shape shares one hidden class and stays in fast mode: a body grown field by
// field through Object.assign ends up a dictionary, which costs on every later read and in
// serialization. Each is marked with the serializer of its shape (domain/transaction-shapes.ts),
// whose member order is the order the literals here write.

const NO_EXTRA: { replacedByOrderID?: string } = {};

export function cancelOrder(
  b: Batch,
  order: OrderRecord,
  reason: string,
  extra: { replacedByOrderID?: string } = NO_EXTRA,
): OrderCancelTransaction {
  const orderID = String(order.id);
  const body: Record<string, unknown> = { type: 'ORDER_CANCEL', orderID };
  // Whenever the order has a client ID, however it was addressed or whatever cancelled it
  // (OrderCancelTransaction.clientOrderID, oanda-v20-openapi.json: "The client ID of the Order
  // cancelled (only provided if the Order has a client Order ID)").
  const clientOrderID = order.clientExtensions?.id;
  if (clientOrderID !== undefined) body['clientOrderID'] = clientOrderID;
  body['reason'] = reason;
  if (extra.replacedByOrderID !== undefined) body['replacedByOrderID'] = extra.replacedByOrderID;
  return b.emit<OrderCancelTransaction>(shaped(body, ORDER_CANCEL_JSON) as never);
}

export function tradeReduce(trade: TradeRecord, a: ReductionAmounts, price: string): TradeReduce {
  const clientTradeID = trade.clientExtensions?.id;
  const { units, realizedPL, halfSpreadCost, plHomeConversionCost, homeConversionCost } = a;
  // clientTradeID in the literal even when undefined (left out when printed): one shape for all.
  // The four conversion costs follow halfSpreadCost, as real 2022 fills print them (facts sheet §5.1, §11).
  return {
    tradeID: String(trade.id),
    clientTradeID,
    units,
    price,
    realizedPL,
    financing: '0.0000',
    baseFinancing: '0.00000000000000',
    guaranteedExecutionFee: '0.0000',
    quoteGuaranteedExecutionFee: '0',
    halfSpreadCost,
    plHomeConversionCost,
    baseFinancingHomeConversionCost: '0.00000000000000',
    guaranteedExecutionFeeHomeConversionCost: '0',
    homeConversionCost,
  } as TradeReduce;
}

export function tradeOpen(order: OrderRecord, tradeID: string, a: OpeningAmounts, price: string): TradeOpen {
  const opened: TradeOpen = {
    tradeID,
    units: a.units,
    price,
    guaranteedExecutionFee: '0.0000',
    quoteGuaranteedExecutionFee: '0',
    halfSpreadCost: a.halfSpreadCost,
    initialMarginRequired: a.initialMarginRequired,
  };
  if (order.tradeClientExtensions !== undefined) opened.clientExtensions = order.tradeClientExtensions;
  return opened;
}

/** What a fill changes on trades: the trade it opens, those it closes in full, the one it reduces. */
export interface TradeChanges {
  readonly tradeOpened: TradeOpen | undefined;
  readonly tradesClosed: TradeReduce[] | undefined;
  readonly tradeReduced: TradeReduce | undefined;
}

/** The ORDER_FILL of a planned fill, at the quote in `slot`. */
export function emitFill(
  b: Batch,
  req: FillRequest,
  slot: PriceSlot,
  precision: number,
  a: FillAmounts,
  trades: TradeChanges,
): OrderFillTransaction {
  const order = req.order;
  const memo = b.state.memo;
  const orderID = String(order.id);
  const clientOrderID = req.clientOrderID ?? order.clientExtensions?.id;
  const fullPrice = fillPrice(memo, slot, precision);
  // The fill path converts only what it can: with a price of the instrument, its base converts too.
  const homeConversionFactors = homeFactorsOf(b.state, order.instrument);
  if (homeConversionFactors === null) throw new Error(`fill of ${order.instrument} without a conversion to ${b.state.currency}`);
  const { units, requestedUnits, price, pl, quotePL, accountBalance } = a;
  // One literal, clientOrderID in it even when undefined: v20 prints clientOrderID right after
  // orderID, and every fill keeps one object shape on the hot path (a spread or a later insert
  // would cost an allocation or a shape change per fill). An undefined member is left out by the
  // serializer and by JSON.stringify alike.
  const body: Record<string, unknown> = {
    type: 'ORDER_FILL',
    orderID,
    clientOrderID,
    instrument: order.instrument,
    units,
    requestedUnits,
    price,
    fullVWAP: price,
    fullPrice,
    reason: req.reason,
    pl,
    quotePL,
    financing: '0.0000',
    baseFinancing: '0.00000000000000',
    commission: '0.0000',
    guaranteedExecutionFee: '0.0000',
    quoteGuaranteedExecutionFee: '0',
    accountBalance,
    gainQuoteHomeConversionFactor: a.gainQuoteFactor,
    lossQuoteHomeConversionFactor: a.lossQuoteFactor,
    homeConversionFactors,
  };
  if (trades.tradeOpened !== undefined) body['tradeOpened'] = trades.tradeOpened;
  if (trades.tradesClosed !== undefined) body['tradesClosed'] = trades.tradesClosed;
  if (trades.tradeReduced !== undefined) body['tradeReduced'] = trades.tradeReduced;
  body['halfSpreadCost'] = a.halfSpreadCost;
  body['plHomeConversionCost'] = a.plHomeConversionCost;
  body['baseFinancingHomeConversionCost'] = '0.00000000000000';
  body['guaranteedExecutionFeeHomeConversionCost'] = '0';
  body['homeConversionCost'] = a.homeConversionCost;
  return b.emit<OrderFillTransaction>(shaped(body, ORDER_FILL_JSON) as never);
}
