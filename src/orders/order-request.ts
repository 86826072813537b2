/** An order request as a client sends it (body element `order`); values are unchecked. */
export interface OrderRequest {
  type?: unknown;
  instrument?: unknown;
  units?: unknown;
  price?: unknown;
  distance?: unknown;
  priceBound?: unknown;
  timeInForce?: unknown;
  gtdTime?: unknown;
  positionFill?: unknown;
  triggerCondition?: unknown;
  tradeID?: unknown;
  clientTradeID?: unknown;
  clientExtensions?: unknown;
  tradeClientExtensions?: unknown;
  takeProfitOnFill?: unknown;
  stopLossOnFill?: unknown;
  trailingStopLossOnFill?: unknown;
}
