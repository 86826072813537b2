import { jsonMember, jsonString } from '../../domain/transaction-json.js';
import type { OrderCancelTransaction, OrderFillTransaction, TradeOpen, TradeReduce } from '../../domain/transactions.js';
import type { Batch } from '../batch.js';
import type { OrderRecord, PriceSlot, TradeRecord } from '../state.js';
import type { FillAmounts, OpeningAmounts, ReductionAmounts } from './amounts.js';
import type { FillRequest } from './plan.js';
import { conversionFactors, fillPrice } from './quote.js';

// The transactions of a fill. Each is one object literal (plus the optional fields in v20 order),
// so every fill of a shape shares one hidden class and stays in fast mode: a body grown field by
// field through Object.assign ends up a dictionary, which costs on every later read and in
// JSON.stringify. Beside each object the same fields are written as its JSON line
// (domain/transaction-json.ts): strings formatted here from numbers are quoted as they are;
// anything that came from a client or a transaction goes through jsonString/jsonMember, which
// escape exactly as JSON.stringify does.

/**
 * Runs a line template. A client object JSON cannot print (cyclic, too deep, a BigInt) makes it
 * throw: then no line is kept, and the journal's own JSON.stringify meets the same error where it
 * always did, after the batch.
 */
export function lineOf<A, B>(template: (a: A, b: B) => string, a: A, b: B): string | undefined {
  try {
    return template(a, b);
  } catch {
    return undefined;
  }
}

const NO_EXTRA: { clientOrderID?: string; replacedByOrderID?: string } = {};

function cancelJson(body: Record<string, unknown>, orderID: string): string {
  return `{"type":"ORDER_CANCEL","orderID":"${orderID}"${jsonMember('clientOrderID', body['clientOrderID'])}${jsonMember('reason', body['reason'])}${jsonMember('replacedByOrderID', body['replacedByOrderID'])}`;
}

export function cancelOrder(b: Batch, order: OrderRecord, reason: string, extra: { clientOrderID?: string; replacedByOrderID?: string } = NO_EXTRA): OrderCancelTransaction {
  const orderID = String(order.id);
  const body: Record<string, unknown> = { type: 'ORDER_CANCEL', orderID };
  if (extra.clientOrderID !== undefined) body['clientOrderID'] = extra.clientOrderID;
  body['reason'] = reason;
  if (extra.replacedByOrderID !== undefined) body['replacedByOrderID'] = extra.replacedByOrderID;
  return b.emit<OrderCancelTransaction>(body as never, lineOf(cancelJson, body, orderID));
}

export function tradeReduce(trade: TradeRecord, a: ReductionAmounts, price: string): TradeReduce {
  const clientTradeID = trade.clientExtensions?.id;
  const { units, realizedPL, halfSpreadCost } = a;
  if (clientTradeID === undefined) {
    return {
      tradeID: String(trade.id), units, price, realizedPL, financing: '0.0000', baseFinancing: '0.00000000000000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost,
    };
  }
  return {
    tradeID: String(trade.id), clientTradeID, units, price, realizedPL, financing: '0.0000', baseFinancing: '0.00000000000000',
    guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost,
  };
}

function tradeReduceJson(r: TradeReduce): string {
  return `{"tradeID":"${r.tradeID}"${jsonMember('clientTradeID', r.clientTradeID)},"units":"${r.units}","price":"${r.price}","realizedPL":"${r.realizedPL}","financing":"0.0000","baseFinancing":"0.00000000000000","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","halfSpreadCost":"${r.halfSpreadCost}"}`;
}

export function tradeOpen(order: OrderRecord, tradeID: string, a: OpeningAmounts, price: string): TradeOpen {
  const opened: TradeOpen = {
    tradeID, units: a.units, price, guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', halfSpreadCost: a.halfSpreadCost,
    initialMarginRequired: a.initialMarginRequired,
  };
  if (order.tradeClientExtensions !== undefined) opened.clientExtensions = order.tradeClientExtensions;
  return opened;
}

function tradeOpenJson(t: TradeOpen): string {
  return `{"tradeID":"${t.tradeID}","units":"${t.units}","price":"${t.price}","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","halfSpreadCost":"${t.halfSpreadCost}","initialMarginRequired":"${t.initialMarginRequired}"${jsonMember('clientExtensions', t.clientExtensions)}}`;
}

/** What a fill changes on trades: the trade it opens, those it closes in full, the one it reduces. */
export interface TradeChanges {
  readonly tradeOpened: TradeOpen | undefined;
  readonly tradesClosed: TradeReduce[] | undefined;
  readonly tradeReduced: TradeReduce | undefined;
}

/** The ORDER_FILL of a planned fill, at the quote in `slot`. */
export function emitFill(b: Batch, req: FillRequest, slot: PriceSlot, precision: number, a: FillAmounts, baseFactor: string, trades: TradeChanges): OrderFillTransaction {
  const order = req.order;
  const memo = b.state.memo;
  const orderID = String(order.id);
  const clientOrderID = req.clientOrderID ?? order.clientExtensions?.id;
  const quote = fillPrice(memo, slot, precision);
  const factors = conversionFactors(memo, a.quoteFactor, baseFactor);
  const homeConversionFactors = factors.factors;
  const fullPrice = quote.price;
  const { units, requestedUnits, price, pl, quotePL, accountBalance, quoteFactor } = a;
  const body: Record<string, unknown> = clientOrderID === undefined
    ? {
      type: 'ORDER_FILL', orderID, instrument: order.instrument, units, requestedUnits, price, fullVWAP: price, fullPrice,
      reason: req.reason, pl, quotePL, financing: '0.0000', baseFinancing: '0.00000000000000', commission: '0.0000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', accountBalance,
      gainQuoteHomeConversionFactor: quoteFactor, lossQuoteHomeConversionFactor: quoteFactor, homeConversionFactors,
    }
    : {
      type: 'ORDER_FILL', orderID, clientOrderID, instrument: order.instrument, units, requestedUnits, price, fullVWAP: price, fullPrice,
      reason: req.reason, pl, quotePL, financing: '0.0000', baseFinancing: '0.00000000000000', commission: '0.0000',
      guaranteedExecutionFee: '0.0000', quoteGuaranteedExecutionFee: '0', accountBalance,
      gainQuoteHomeConversionFactor: quoteFactor, lossQuoteHomeConversionFactor: quoteFactor, homeConversionFactors,
    };
  if (trades.tradeOpened !== undefined) body['tradeOpened'] = trades.tradeOpened;
  if (trades.tradesClosed !== undefined) body['tradesClosed'] = trades.tradesClosed;
  if (trades.tradeReduced !== undefined) body['tradeReduced'] = trades.tradeReduced;
  body['halfSpreadCost'] = a.halfSpreadCost;
  const json = lineOf(fillJson, body as unknown as OrderFillTransaction, { quote: quote.json, factors: factors.json });
  return b.emit<OrderFillTransaction>(body as never, json);
}

/** The fill's JSON line without the header (emitFill's object, member by member). */
function fillJson(tx: OrderFillTransaction, nested: { quote: string; factors: string }): string {
  let json = `{"type":"ORDER_FILL","orderID":"${tx.orderID}"${jsonMember('clientOrderID', tx.clientOrderID)},"instrument":${jsonString(tx.instrument)},"units":"${tx.units}","requestedUnits":"${tx.requestedUnits}","price":"${tx.price}","fullVWAP":"${tx.fullVWAP}","fullPrice":${nested.quote},"reason":${jsonString(tx.reason)},"pl":"${tx.pl}","quotePL":"${tx.quotePL}","financing":"0.0000","baseFinancing":"0.00000000000000","commission":"0.0000","guaranteedExecutionFee":"0.0000","quoteGuaranteedExecutionFee":"0","accountBalance":${jsonString(tx.accountBalance)},"gainQuoteHomeConversionFactor":"${tx.gainQuoteHomeConversionFactor}","lossQuoteHomeConversionFactor":"${tx.lossQuoteHomeConversionFactor}","homeConversionFactors":${nested.factors}`;
  if (tx.tradeOpened !== undefined) json += `,"tradeOpened":${tradeOpenJson(tx.tradeOpened)}`;
  const closed = tx.tradesClosed;
  if (closed !== undefined) {
    let list = '';
    for (let i = 0; i < closed.length; i += 1) list += i === 0 ? tradeReduceJson(closed[i] as TradeReduce) : `,${tradeReduceJson(closed[i] as TradeReduce)}`;
    json += `,"tradesClosed":[${list}]`;
  }
  if (tx.tradeReduced !== undefined) json += `,"tradeReduced":${tradeReduceJson(tx.tradeReduced)}`;
  return `${json},"halfSpreadCost":"${tx.halfSpreadCost}"`;
}
