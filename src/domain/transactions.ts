/**
 * v20 Transactions exactly as they go on the wire and into the journal: every decimal a string,
 * every DateTime an RFC3339 string with nine fractional digits. Key order is construction order,
 * and construction order is fixed, so JSON.stringify of a transaction is byte-for-byte stable.
 */
import type { OrderRejectTransactionType, OrderTransactionType } from './order-types.js';

/** The order vocabulary lives with the order-type table; re-exported because transactions carry it. */
export type { OrderRejectTransactionType, OrderTransactionType, OrderType } from './order-types.js';

export interface ClientExtensions {
  id?: string;
  tag?: string;
  comment?: string;
}

export interface TakeProfitDetails {
  price: string;
  timeInForce?: string;
  gtdTime?: string;
  clientExtensions?: ClientExtensions;
}

export interface StopLossDetails {
  price?: string;
  distance?: string;
  timeInForce?: string;
  gtdTime?: string;
  clientExtensions?: ClientExtensions;
}

export interface TrailingStopLossDetails {
  distance: string;
  timeInForce?: string;
  gtdTime?: string;
  clientExtensions?: ClientExtensions;
}

export interface TransactionHeader {
  id: string;
  accountID: string;
  userID: number;
  batchID: string;
  requestID?: string;
  time: string;
}

/** Creation (or rejected creation) of any order type; fields appear only where the type has them. */
export interface OrderTransaction extends TransactionHeader {
  type: OrderTransactionType | OrderRejectTransactionType;
  instrument?: string;
  units?: string;
  price?: string;
  distance?: string;
  tradeID?: string;
  clientTradeID?: string;
  timeInForce?: string;
  gtdTime?: string;
  priceBound?: string;
  positionFill?: string;
  triggerCondition?: string;
  partialFill?: string;
  tradeClose?: { tradeID: string; clientTradeID?: string; units: string };
  longPositionCloseout?: { instrument: string; units: string };
  shortPositionCloseout?: { instrument: string; units: string };
  reason?: string;
  /** MARKET orders of a margin closeout (reason MARGIN_CLOSEOUT): why the closeout happened. */
  marginCloseout?: { reason: 'MARGIN_CHECK_VIOLATION' | 'REGULATORY_MARGIN_CALL_VIOLATION' | 'REGULATORY_MARGIN_CHECK_VIOLATION' };
  clientExtensions?: ClientExtensions;
  takeProfitOnFill?: TakeProfitDetails;
  stopLossOnFill?: StopLossDetails;
  trailingStopLossOnFill?: TrailingStopLossDetails;
  tradeClientExtensions?: ClientExtensions;
  orderFillTransactionID?: string;
  replacesOrderID?: string;
  cancellingTransactionID?: string;
  intendedReplacesOrderID?: string;
  /** MARKET_IF_TOUCHED only: the market the order must move from (the Order resource's field). */
  initialMarketPrice?: string;
  rejectReason?: string;
}

export interface PriceBucket {
  price: string;
  liquidity: number;
}

export interface FillPrice {
  closeoutBid: string;
  closeoutAsk: string;
  timestamp: string;
  bids: PriceBucket[];
  asks: PriceBucket[];
}

export interface HomeConversionFactors {
  gainQuoteHome: { factor: string };
  lossQuoteHome: { factor: string };
  gainBaseHome: { factor: string };
  lossBaseHome: { factor: string };
}

export interface TradeOpen {
  tradeID: string;
  units: string;
  price: string;
  guaranteedExecutionFee: string;
  quoteGuaranteedExecutionFee: string;
  halfSpreadCost: string;
  initialMarginRequired: string;
  clientExtensions?: ClientExtensions;
}

export interface TradeReduce {
  tradeID: string;
  clientTradeID?: string;
  units: string;
  price: string;
  realizedPL: string;
  financing: string;
  baseFinancing: string;
  guaranteedExecutionFee: string;
  quoteGuaranteedExecutionFee: string;
  halfSpreadCost: string;
  /** The home-currency conversion costs (real 2022 fills, facts sheet §5.1 and §11; account/home-currency.ts). */
  plHomeConversionCost: string;
  baseFinancingHomeConversionCost: string;
  guaranteedExecutionFeeHomeConversionCost: string;
  homeConversionCost: string;
}

export interface OrderFillTransaction extends TransactionHeader {
  type: 'ORDER_FILL';
  orderID: string;
  clientOrderID?: string;
  instrument: string;
  units: string;
  requestedUnits: string;
  price: string;
  fullVWAP: string;
  fullPrice: FillPrice;
  reason: string;
  pl: string;
  quotePL: string;
  financing: string;
  baseFinancing: string;
  commission: string;
  guaranteedExecutionFee: string;
  quoteGuaranteedExecutionFee: string;
  accountBalance: string;
  gainQuoteHomeConversionFactor: string;
  lossQuoteHomeConversionFactor: string;
  homeConversionFactors: HomeConversionFactors;
  tradeOpened?: TradeOpen;
  tradesClosed?: TradeReduce[];
  tradeReduced?: TradeReduce;
  halfSpreadCost: string;
  plHomeConversionCost: string;
  baseFinancingHomeConversionCost: string;
  guaranteedExecutionFeeHomeConversionCost: string;
  homeConversionCost: string;
}

export interface OrderCancelTransaction extends TransactionHeader {
  type: 'ORDER_CANCEL';
  orderID: string;
  clientOrderID?: string;
  reason: string;
  replacedByOrderID?: string;
}

export interface OrderCancelRejectTransaction extends TransactionHeader {
  type: 'ORDER_CANCEL_REJECT';
  orderID?: string;
  clientOrderID?: string;
  rejectReason: string;
}

export interface OrderClientExtensionsModifyTransaction extends TransactionHeader {
  type: 'ORDER_CLIENT_EXTENSIONS_MODIFY' | 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT';
  orderID?: string;
  clientOrderID?: string;
  clientExtensionsModify?: ClientExtensions;
  tradeClientExtensionsModify?: ClientExtensions;
  rejectReason?: string;
}

export interface TradeClientExtensionsModifyTransaction extends TransactionHeader {
  type: 'TRADE_CLIENT_EXTENSIONS_MODIFY' | 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT';
  tradeID?: string;
  clientTradeID?: string;
  tradeClientExtensionsModify?: ClientExtensions;
  rejectReason?: string;
}

export interface ClientConfigureTransaction extends TransactionHeader {
  type: 'CLIENT_CONFIGURE' | 'CLIENT_CONFIGURE_REJECT';
  alias?: string;
  marginRate?: string;
  rejectReason?: string;
}

export interface TransferFundsTransaction extends TransactionHeader {
  type: 'TRANSFER_FUNDS' | 'TRANSFER_FUNDS_REJECT';
  amount: string;
  fundingReason: string;
  comment?: string;
  accountBalance?: string;
  rejectReason?: string;
}

export interface CreateTransaction extends TransactionHeader {
  type: 'CREATE';
  divisionID: number;
  siteID: number;
  accountUserID: number;
  accountNumber: number;
  homeCurrency: string;
}

export interface DailyFinancingTransaction extends TransactionHeader {
  type: 'DAILY_FINANCING';
  financing: string;
  accountBalance: string;
  accountFinancingMode: 'DAILY';
  positionFinancings: PositionFinancing[];
}

/** One position's daily financing (OANDA's current PositionFinancing and OpenTradeFinancing; facts sheet §5.2). */
export interface PositionFinancing {
  instrument: string;
  financing: string;
  baseFinancing: string;
  quoteFinancing: string;
  homeConversionFactors: HomeConversionFactors;
  openTradeFinancings: OpenTradeFinancing[];
  accountFinancingMode: 'DAILY';
}

export interface OpenTradeFinancing {
  tradeID: string;
  financing: string;
  baseFinancing: string;
  quoteFinancing: string;
  financingRate: string;
}

/** MARGIN_CALL_ENTER / MARGIN_CALL_EXIT (no fields of their own) and MARGIN_CALL_EXTEND (OANDA's definitions). */
export interface MarginCallTransaction extends TransactionHeader {
  type: 'MARGIN_CALL_ENTER' | 'MARGIN_CALL_EXIT';
}

export interface MarginCallExtendTransaction extends TransactionHeader {
  type: 'MARGIN_CALL_EXTEND';
  /** 1 for the first extension of the current margin call. */
  extensionNumber: number;
}

export type Transaction =
  | OrderTransaction
  | OrderFillTransaction
  | OrderCancelTransaction
  | OrderCancelRejectTransaction
  | OrderClientExtensionsModifyTransaction
  | TradeClientExtensionsModifyTransaction
  | ClientConfigureTransaction
  | TransferFundsTransaction
  | CreateTransaction
  | DailyFinancingTransaction
  | MarginCallTransaction
  | MarginCallExtendTransaction;

export type TransactionType = Transaction['type'];
