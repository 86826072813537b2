import { compileShape, type Member, type ObjectShape, type TransactionSerializer } from './transaction-json.js';

/**
 * The member order of the transactions the account core builds, and their serializers, compiled
 * once. Members are in OANDA's order: the type's own fields, then the header every transaction
 * gets (Batch.emit). 'digits' members are strings the core formatted itself from numbers and IDs;
 * 'text' members are strings it holds (escaped as JSON escapes them); 'asSent' members carry what
 * a client sent and print exactly as JSON.stringify prints any value. An absent (undefined) member
 * is left out, as JSON.stringify leaves it out.
 */
type Members = Record<string, Member>;

const HEADER: Members = { id: 'digits', accountID: 'text', userID: 'number', batchID: 'digits', requestID: 'asSent', time: 'text' };

/** A transaction's shape: its own members, then the header; `optional` names the members that may be absent. */
function transaction(members: Members, optional: readonly string[]): TransactionSerializer {
  return compileShape({ object: { ...members, ...HEADER }, optional: [...optional, 'requestID'] });
}

const object = (members: Members, optional: readonly string[] = []): ObjectShape => ({ object: members, optional });
/** An object many fills share (account/fill/quote.ts): printed once, on the first line that holds it. */
const sharedObject = (members: Members): ObjectShape => ({ object: members, shared: true });

const BUCKET = object({ price: 'digits', liquidity: 'number' });

const FILL_PRICE = sharedObject({
  closeoutBid: 'digits',
  closeoutAsk: 'digits',
  timestamp: 'text',
  bids: { array: BUCKET },
  asks: { array: BUCKET },
});

const FACTOR = object({ factor: 'digits' });

const HOME_CONVERSION_FACTORS = sharedObject({ gainQuoteHome: FACTOR, lossQuoteHome: FACTOR, gainBaseHome: FACTOR, lossBaseHome: FACTOR });

const TRADE_OPEN = object(
  {
    tradeID: 'digits',
    units: 'digits',
    price: 'digits',
    guaranteedExecutionFee: 'digits',
    quoteGuaranteedExecutionFee: 'digits',
    halfSpreadCost: 'digits',
    initialMarginRequired: 'digits',
    clientExtensions: 'asSent',
  },
  ['clientExtensions'],
);

const TRADE_REDUCE = object(
  {
    tradeID: 'digits',
    clientTradeID: 'asSent',
    units: 'digits',
    price: 'digits',
    realizedPL: 'digits',
    financing: 'digits',
    baseFinancing: 'digits',
    guaranteedExecutionFee: 'digits',
    quoteGuaranteedExecutionFee: 'digits',
    halfSpreadCost: 'digits',
    plHomeConversionCost: 'digits',
    baseFinancingHomeConversionCost: 'digits',
    guaranteedExecutionFeeHomeConversionCost: 'digits',
    homeConversionCost: 'digits',
  },
  ['clientTradeID'],
);

/** ORDER_FILL as the fill path builds it (account/fill/bodies.ts). */
export const ORDER_FILL_JSON: TransactionSerializer = transaction(
  {
    type: 'text',
    orderID: 'digits',
    clientOrderID: 'asSent',
    instrument: 'text',
    units: 'digits',
    requestedUnits: 'digits',
    price: 'digits',
    fullVWAP: 'digits',
    fullPrice: FILL_PRICE,
    reason: 'text',
    pl: 'digits',
    quotePL: 'digits',
    financing: 'digits',
    baseFinancing: 'digits',
    commission: 'digits',
    guaranteedExecutionFee: 'digits',
    quoteGuaranteedExecutionFee: 'digits',
    accountBalance: 'text',
    gainQuoteHomeConversionFactor: 'digits',
    lossQuoteHomeConversionFactor: 'digits',
    homeConversionFactors: HOME_CONVERSION_FACTORS,
    tradeOpened: TRADE_OPEN,
    tradesClosed: { array: TRADE_REDUCE },
    tradeReduced: TRADE_REDUCE,
    halfSpreadCost: 'digits',
    plHomeConversionCost: 'digits',
    baseFinancingHomeConversionCost: 'digits',
    guaranteedExecutionFeeHomeConversionCost: 'digits',
    homeConversionCost: 'digits',
  },
  ['clientOrderID', 'tradeOpened', 'tradesClosed', 'tradeReduced'],
);

/** ORDER_CANCEL (account/fill/bodies.ts cancelOrder). */
export const ORDER_CANCEL_JSON: TransactionSerializer = transaction(
  {
    type: 'text',
    orderID: 'digits',
    clientOrderID: 'asSent',
    reason: 'text',
    replacedByOrderID: 'asSent',
  },
  ['clientOrderID', 'replacedByOrderID'],
);

/** A TAKE_PROFIT, STOP_LOSS or TRAILING_STOP_LOSS order created by a fill (account/fill/on-fill.ts). */
export const ON_FILL_ORDER_JSON: TransactionSerializer = transaction(
  {
    type: 'text',
    tradeID: 'digits',
    price: 'asSent',
    distance: 'asSent',
    timeInForce: 'text',
    gtdTime: 'asSent',
    triggerCondition: 'text',
    reason: 'text',
    clientExtensions: 'asSent',
    orderFillTransactionID: 'digits',
  },
  ['price', 'distance', 'gtdTime', 'clientExtensions'],
);

/**
 * An entry order's creation (MARKET, LIMIT, STOP, MARKET_IF_TOUCHED) as a client request creates
 * it: the members in the order the request echo and decideCreateOrder put them.
 */
const ENTRY_MEMBERS_AFTER_TYPE = [
  'instrument',
  'units',
  'price',
  'priceBound',
  'timeInForce',
  'gtdTime',
  'triggerCondition',
  'partialFill',
  'positionFill',
  'clientExtensions',
  'takeProfitOnFill',
  'stopLossOnFill',
  'trailingStopLossOnFill',
  'tradeClientExtensions',
  'initialMarketPrice',
  'reason',
  'replacesOrderID',
  'cancellingTransactionID',
];

export const ENTRY_ORDER_JSON: TransactionSerializer = transaction(
  {
    type: 'text',
    instrument: 'asSent',
    units: 'asSent',
    price: 'asSent',
    priceBound: 'asSent',
    timeInForce: 'asSent',
    gtdTime: 'asSent',
    triggerCondition: 'asSent',
    partialFill: 'asSent',
    positionFill: 'asSent',
    clientExtensions: 'asSent',
    takeProfitOnFill: 'asSent',
    stopLossOnFill: 'asSent',
    trailingStopLossOnFill: 'asSent',
    tradeClientExtensions: 'asSent',
    initialMarketPrice: 'asSent',
    reason: 'asSent',
    replacesOrderID: 'asSent',
    cancellingTransactionID: 'asSent',
  },
  ENTRY_MEMBERS_AFTER_TYPE,
);

/**
 * The members a MARKET order the account places itself starts with (a trade close, a position
 * closeout, a margin closeout): the member saying why follows them.
 */
const CLOSE_ORDER: Members = {
  type: 'text',
  instrument: 'text',
  units: 'digits',
  timeInForce: 'text',
  positionFill: 'text',
  reason: 'text',
};

/** The MARKET order of a trade close (account/decide-trades.ts decideCloseTrade). */
export const TRADE_CLOSE_ORDER_JSON: TransactionSerializer = transaction(
  { ...CLOSE_ORDER, tradeClose: object({ tradeID: 'digits', clientTradeID: 'asSent', units: 'text' }, ['clientTradeID']) },
  [],
);

/** The MARKET order closing one side of a position (account/decide-trades.ts decideClosePosition), by side. */
function positionCloseoutOrder(side: 'longPositionCloseout' | 'shortPositionCloseout'): TransactionSerializer {
  return transaction({ ...CLOSE_ORDER, [side]: object({ instrument: 'text', units: 'text' }), clientExtensions: 'asSent' }, [
    'clientExtensions',
  ]);
}

export const LONG_CLOSEOUT_ORDER_JSON: TransactionSerializer = positionCloseoutOrder('longPositionCloseout');
export const SHORT_CLOSEOUT_ORDER_JSON: TransactionSerializer = positionCloseoutOrder('shortPositionCloseout');

/** MARGIN_CALL_ENTER and MARGIN_CALL_EXIT: no fields of their own (OANDA's definitions). */
export const MARGIN_CALL_JSON: TransactionSerializer = transaction({ type: 'text' }, []);

/** MARGIN_CALL_EXTEND: the number of the extension, an integer (OANDA's definitions). */
export const MARGIN_CALL_EXTEND_JSON: TransactionSerializer = transaction({ type: 'text', extensionNumber: 'number' }, []);

/** A MARKET order of a margin closeout (account/margin-call.ts), in the member order of a position closeout's. */
export const MARGIN_CLOSEOUT_ORDER_JSON: TransactionSerializer = transaction(
  { ...CLOSE_ORDER, marginCloseout: object({ reason: 'text' }) },
  [],
);
