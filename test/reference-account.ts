import { Decimal } from '../src/domain/decimal.js';

/**
 * A deliberately naive reference model of a v20 netting account (USD home, EUR_USD only, quote
 * currency = home so every conversion factor is 1), for model-based tests of the real Account.
 *
 * It shares nothing with src/account: plain arrays, a full scan of every pending order on every
 * quote, Decimal money. It covers MARKET, LIMIT and STOP orders (DEFAULT trigger condition, GTC,
 * positionFill DEFAULT = REDUCE_FIRST, FIFO reduction), takeProfitOnFill / stopLossOnFill by price,
 * order cancel and trade close. Transaction IDs are counted so order and trade IDs can be predicted:
 * CREATE is 1 and the opening deposit 2.
 *
 * Rules it follows (oanda-v20-facts.md sections 5 and 6):
 * - fills take the ask for buys and the bid for sells, whatever the order's price (a marketable
 *   LIMIT or STOP fills at once at the market);
 * - LIMIT buy triggers at ask <= price, sell at bid >= price; STOP buy at ask >= price, sell at
 *   bid <= price; a long trade's TP triggers at bid >= price and SL at bid <= price, a short
 *   trade's TP at ask <= price and SL at ask >= price;
 * - a fill first reduces opposite trades oldest first, then opens a trade (ID = the fill's ID)
 *   with the remainder; a trade's realized P/L is (close - open) x units rounded half-up to 4 dp;
 * - on-fill TP/SL orders are created (TP first, then SL) only when a trade is opened; if one would
 *   trigger at once the whole entry is cancelled (TAKE_PROFIT_ON_FILL_LOSS / STOP_LOSS_ON_FILL_LOSS);
 * - a fully closed trade's pending TP/SL are cancelled (LINKED_TRADE_CLOSED) right after the fill,
 *   before any on-fill orders of a newly opened trade;
 * - orders crossed by a quote execute in ID order, skipping those an earlier fill of the same quote
 *   already cancelled;
 * - a MARKET order without a price is created and cancelled (MARKET_HALTED);
 * - cancelling an order that is not pending, or closing a trade that is not open (or more units than
 *   it has), writes one reject transaction.
 */

export interface RefTrade {
  readonly id: number;
  /** Signed: positive long. */
  units: Decimal;
  readonly price: Decimal;
  takeProfitOrderId: number | undefined;
  stopLossOrderId: number | undefined;
}

export type RefOrderKind = 'MARKET' | 'LIMIT' | 'STOP' | 'TAKE_PROFIT' | 'STOP_LOSS';

export interface RefOrder {
  readonly id: number;
  readonly kind: RefOrderKind;
  /** Entry orders: signed units. */
  readonly units: Decimal;
  readonly price: Decimal;
  /** TP/SL orders: the trade they close. */
  readonly tradeId: number | undefined;
  readonly takeProfit: Decimal | undefined;
  readonly stopLoss: Decimal | undefined;
}

export interface RefView {
  readonly balance: string;
  readonly pl: string;
  readonly lastTransactionID: number;
  readonly trades: readonly { id: string; units: string; price: string }[];
  readonly pendingOrderIds: readonly string[];
}

export interface EntryRequest {
  readonly units: string;
  readonly price?: string;
  readonly takeProfit?: string;
  readonly stopLoss?: string;
}

const PRECISION = 5;

function round4(d: Decimal): Decimal {
  return d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
}

export class ReferenceAccount {
  balance: Decimal;
  pl = new Decimal(0);
  lastId = 2;
  bid: Decimal | undefined;
  ask: Decimal | undefined;
  /** Open trades, oldest first. */
  trades: RefTrade[] = [];
  /** Pending orders, in ID order. */
  orders: RefOrder[] = [];
  /** Every order and trade ID ever created (for tests that pick one at random). */
  readonly orderIds: number[] = [];
  readonly tradeIds: number[] = [];

  constructor(deposit: string) {
    this.balance = new Decimal(deposit);
  }

  private nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  private newOrder(kind: RefOrderKind, fields: Partial<Omit<RefOrder, 'id' | 'kind'>>): RefOrder {
    const order: RefOrder = {
      id: this.nextId(),
      kind,
      units: fields.units ?? new Decimal(0),
      price: fields.price ?? new Decimal(0),
      tradeId: fields.tradeId,
      takeProfit: fields.takeProfit,
      stopLoss: fields.stopLoss,
    };
    this.orderIds.push(order.id);
    return order;
  }

  private removeOrder(id: number): void {
    this.orders = this.orders.filter((o) => o.id !== id);
    for (const t of this.trades) {
      if (t.takeProfitOrderId === id) t.takeProfitOrderId = undefined;
      if (t.stopLossOrderId === id) t.stopLossOrderId = undefined;
    }
  }

  private cancel(order: RefOrder): void {
    this.nextId(); // ORDER_CANCEL
    this.removeOrder(order.id);
  }

  private isTriggered(o: RefOrder): boolean {
    const bid = this.bid;
    const ask = this.ask;
    if (bid === undefined || ask === undefined) return false;
    const buy = o.units.isPositive();
    switch (o.kind) {
      case 'MARKET':
        return false;
      case 'LIMIT':
        return buy ? ask.lessThanOrEqualTo(o.price) : bid.greaterThanOrEqualTo(o.price);
      case 'STOP':
        return buy ? ask.greaterThanOrEqualTo(o.price) : bid.lessThanOrEqualTo(o.price);
      case 'TAKE_PROFIT':
      case 'STOP_LOSS': {
        const trade = this.trades.find((t) => t.id === o.tradeId);
        if (trade === undefined) return false;
        const long = trade.units.isPositive();
        if (o.kind === 'TAKE_PROFIT') return long ? bid.greaterThanOrEqualTo(o.price) : ask.lessThanOrEqualTo(o.price);
        return long ? bid.lessThanOrEqualTo(o.price) : ask.greaterThanOrEqualTo(o.price);
      }
    }
  }

  /**
   * Executes an order at the current quote: `units` signed; `closeTradeId` restricts the fill to
   * reducing that one trade.
   */
  private execute(order: RefOrder, units: Decimal, closeTradeId?: number): void {
    const bid = this.bid;
    const ask = this.ask;
    if (bid === undefined || ask === undefined) {
      this.cancel(order); // MARKET_HALTED
      return;
    }
    const buy = units.isPositive();
    const price = buy ? ask : bid;
    let remaining = units.abs();
    const reductions: { trade: RefTrade; units: Decimal }[] = [];
    const candidates =
      closeTradeId !== undefined
        ? this.trades.filter((t) => t.id === closeTradeId)
        : this.trades.filter((t) => t.units.isPositive() !== buy);
    for (const trade of candidates) {
      if (remaining.isZero()) break;
      const take = Decimal.min(remaining, trade.units.abs());
      reductions.push({ trade, units: take });
      remaining = remaining.minus(take);
    }
    const opening = closeTradeId !== undefined ? new Decimal(0) : remaining;
    if (!opening.isZero()) {
      // On-fill orders that would trigger at once cancel the whole entry.
      const tp = order.takeProfit;
      const sl = order.stopLoss;
      if (tp !== undefined && (buy ? bid.greaterThanOrEqualTo(tp) : ask.lessThanOrEqualTo(tp))) {
        this.cancel(order);
        return;
      }
      if (sl !== undefined && (buy ? bid.lessThanOrEqualTo(sl) : ask.greaterThanOrEqualTo(sl))) {
        this.cancel(order);
        return;
      }
    }
    if (reductions.length === 0 && opening.isZero()) {
      this.cancel(order);
      return;
    }
    const fillId = this.nextId(); // ORDER_FILL
    this.removeOrder(order.id);
    let pl = new Decimal(0);
    const closed: RefTrade[] = [];
    for (const r of reductions) {
      const long = r.trade.units.isPositive();
      const perUnit = long ? price.minus(r.trade.price) : r.trade.price.minus(price);
      pl = pl.plus(round4(perUnit.times(r.units)));
      r.trade.units = long ? r.trade.units.minus(r.units) : r.trade.units.plus(r.units);
      if (r.trade.units.isZero()) closed.push(r.trade);
    }
    this.balance = this.balance.plus(pl);
    this.pl = this.pl.plus(pl);
    this.trades = this.trades.filter((t) => !t.units.isZero());
    for (const trade of closed) {
      for (const dependent of [trade.takeProfitOrderId, trade.stopLossOrderId]) {
        const o = this.orders.find((x) => x.id === dependent);
        if (o !== undefined) this.cancel(o); // LINKED_TRADE_CLOSED
      }
    }
    if (!opening.isZero()) {
      const trade: RefTrade = {
        id: fillId,
        units: buy ? opening : opening.negated(),
        price,
        takeProfitOrderId: undefined,
        stopLossOrderId: undefined,
      };
      this.trades.push(trade);
      this.tradeIds.push(trade.id);
      if (order.takeProfit !== undefined) {
        const tp = this.newOrder('TAKE_PROFIT', { price: order.takeProfit, tradeId: trade.id });
        this.orders.push(tp);
        trade.takeProfitOrderId = tp.id;
      }
      if (order.stopLoss !== undefined) {
        const sl = this.newOrder('STOP_LOSS', { price: order.stopLoss, tradeId: trade.id });
        this.orders.push(sl);
        trade.stopLossOrderId = sl.id;
      }
    }
  }

  private trigger(order: RefOrder): void {
    if (order.tradeId !== undefined) {
      const trade = this.trades.find((t) => t.id === order.tradeId);
      if (trade === undefined) throw new Error(`reference: order ${order.id} outlived trade ${order.tradeId}`);
      this.execute(order, trade.units.negated(), trade.id);
    } else {
      this.execute(order, order.units);
    }
  }

  /** A quote: every pending order is checked; the crossed ones execute in ID order. */
  quote(bid: string, ask: string): void {
    this.bid = new Decimal(bid);
    this.ask = new Decimal(ask);
    const crossed = this.orders
      .filter((o) => this.isTriggered(o))
      .map((o) => o.id)
      .sort((a, b) => a - b);
    for (const id of crossed) {
      const order = this.orders.find((o) => o.id === id);
      if (order !== undefined) this.trigger(order);
    }
  }

  private entryFields(req: EntryRequest): Partial<Omit<RefOrder, 'id' | 'kind'>> {
    const fields: { -readonly [K in keyof RefOrder]?: RefOrder[K] } = { units: new Decimal(req.units) };
    if (req.price !== undefined) fields.price = new Decimal(req.price);
    if (req.takeProfit !== undefined) fields.takeProfit = new Decimal(req.takeProfit);
    if (req.stopLoss !== undefined) fields.stopLoss = new Decimal(req.stopLoss);
    return fields;
  }

  marketOrder(req: EntryRequest): void {
    const order = this.newOrder('MARKET', this.entryFields(req));
    this.execute(order, order.units);
  }

  /** LIMIT or STOP: rests unless the current quote already crosses it. */
  pendingOrder(kind: 'LIMIT' | 'STOP', req: EntryRequest): void {
    const order = this.newOrder(kind, this.entryFields(req));
    this.orders.push(order);
    if (this.isTriggered(order)) this.trigger(order);
  }

  cancelOrder(id: number): void {
    const order = this.orders.find((o) => o.id === id);
    if (order === undefined) {
      this.nextId(); // ORDER_CANCEL_REJECT
      return;
    }
    this.cancel(order);
  }

  /** Closes all of a trade, or `units` (positive) of it. */
  closeTrade(id: number, units?: string): void {
    const trade = this.trades.find((t) => t.id === id);
    if (trade === undefined || (units !== undefined && new Decimal(units).greaterThan(trade.units.abs()))) {
      this.nextId(); // MARKET_ORDER_REJECT
      return;
    }
    const size = units === undefined ? trade.units.abs() : new Decimal(units);
    const signed = trade.units.isPositive() ? size.negated() : size;
    const order = this.newOrder('MARKET', { units: signed });
    this.execute(order, signed, trade.id);
  }

  view(): RefView {
    return {
      balance: this.balance.toFixed(4),
      pl: this.pl.toFixed(4),
      lastTransactionID: this.lastId,
      trades: [...this.trades]
        .sort((a, b) => a.id - b.id)
        .map((t) => ({ id: String(t.id), units: t.units.toFixed(0), price: t.price.toFixed(PRECISION) })),
      pendingOrderIds: this.orders.map((o) => String(o.id)),
    };
  }
}
