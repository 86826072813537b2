/**
 * A grid of resting LIMIT orders around a centre price: buy LIMITs every `spacingPips` below it,
 * sell LIMITs above it, each with a take profit one grid step away and a stop loss on fill. When a
 * take profit closes a trade, its level is armed again (a new LIMIT at the same price). When the
 * market has left the grid and nothing is open, the whole grid follows it: every resting order is
 * moved with a replace (PUT /orders/{orderSpecifier}), as a client would on OANDA.
 *
 *   v20sim backtest --strategy examples/strategies/grid.ts --param levels=5 --param spacingPips=8
 *
 * Longs only open below the centre and shorts only above it, and a long's take profit is never
 * above the centre, so on a netting account the two sides never meet.
 */
import type { StrategyContext, StrategyDefinition } from '../../src/backtest/index.js';
import type { Transaction } from '../../src/index.js';

const params = {
  instrument: 'EUR_USD',
  /** Orders on each side of the centre. */
  levels: 4,
  /** Distance between levels, and each trade's take profit, in pips. */
  spacingPips: 10,
  /** Stop loss distance of each trade from its fill, in pips. */
  stopLossPips: 50,
  /** Move the grid when the mid is this far from the centre with no trade open, in pips. */
  recenterPips: 60,
  units: 1_000,
  /** Close what is still open when the data ends. */
  closeAtEnd: true,
};

type Params = typeof params;

interface Level {
  /** +1 buys below the centre, -1 sells above it. */
  readonly side: 1 | -1;
  /** 1 = nearest the centre. */
  readonly step: number;
  /** Pending order at this level, if any. */
  orderID: string | undefined;
  /** Trade this level opened that is still open, if any. */
  tradeID: string | undefined;
}

const strategy: StrategyDefinition<Params> = {
  name: 'grid',
  params,
  create(p) {
    if (!(Number.isInteger(p.levels) && p.levels >= 1 && p.levels <= 100)) throw new Error('levels must be a whole number from 1 to 100');
    if (!(p.spacingPips > 0 && p.stopLossPips > 0)) throw new Error('spacingPips and stopLossPips must be positive');
    let scale = 100_000; // price points per 1.0
    let pipPoints = 10; // price points per pip
    let precision = 5;
    let center: number | undefined; // in price points
    const levels: Level[] = [];
    for (let step = 1; step <= p.levels; step += 1) {
      levels.push({ side: 1, step, orderID: undefined, tradeID: undefined }, { side: -1, step, orderID: undefined, tradeID: undefined });
    }
    const byOrder = new Map<string, Level>();
    const byTrade = new Map<string, Level>();

    const priceText = (points: number): string => (points / scale).toFixed(precision);
    const levelPoints = (level: Level, at: number): number => at - level.side * level.step * Math.round(p.spacingPips * pipPoints);

    const request = (level: Level, at: number) => {
      const price = levelPoints(level, at);
      return {
        type: 'LIMIT' as const,
        instrument: p.instrument,
        units: String(level.side * p.units),
        price: priceText(price),
        takeProfitOnFill: { price: priceText(price + level.side * Math.round(p.spacingPips * pipPoints)) },
        stopLossOnFill: { distance: priceText(Math.round(p.stopLossPips * pipPoints)) },
        clientExtensions: { tag: 'grid', comment: `${level.side > 0 ? 'buy' : 'sell'} level ${level.step}` },
      };
    };

    const remember = (level: Level, orderID: string | undefined): void => {
      if (level.orderID !== undefined) byOrder.delete(level.orderID);
      level.orderID = orderID;
      if (orderID !== undefined) byOrder.set(orderID, level);
    };

    /** Places the level's order unless it rests already or the level holds a trade. */
    const arm = (ctx: StrategyContext<Params>, level: Level): void => {
      if (center === undefined || level.orderID !== undefined || level.tradeID !== undefined) return;
      const outcome = ctx.createOrder(request(level, center));
      const created = outcome.response['orderCreateTransaction'];
      // Even a LIMIT the market has crossed already and that filled at once is remembered: its
      // fill reaches onTransaction after this hook returns, and that is where trades are tracked.
      if (created !== undefined) remember(level, created.id);
      else
        ctx.log(
          `level ${level.side * level.step} not placed: ${outcome.reject?.errorMessage ?? outcome.invalid?.errorMessage ?? 'rejected'}`,
        );
    };

    /** Moves every resting order to the new centre with a replace, and places the missing ones. */
    const recenter = (ctx: StrategyContext<Params>, at: number): void => {
      center = at;
      for (const level of levels) {
        if (level.orderID === undefined) {
          arm(ctx, level);
          continue;
        }
        const outcome = ctx.replaceOrder(level.orderID, request(level, at));
        const created = outcome.response['orderCreateTransaction'];
        if (created !== undefined) remember(level, created.id);
        else
          ctx.log(
            `level ${level.side * level.step} not moved: ${outcome.reject?.errorMessage ?? outcome.invalid?.errorMessage ?? 'rejected'}`,
          );
      }
    };

    return {
      onStart(ctx) {
        const spec = ctx.instrument(p.instrument);
        if (spec === undefined) throw new Error(`unknown instrument ${p.instrument}`);
        precision = spec.displayPrecision;
        scale = 10 ** precision;
        pipPoints = 10 ** (precision + spec.pipLocation);
      },
      onTick(tick, ctx) {
        if (tick.instrument !== p.instrument) return;
        const mid = Math.round(((tick.bid + tick.ask) / 2) * scale);
        if (center === undefined) {
          recenter(ctx, mid);
          return;
        }
        if (Math.abs(mid - center) > p.recenterPips * pipPoints && byTrade.size === 0) recenter(ctx, mid);
      },
      onTransaction(tx: Transaction, ctx) {
        if (tx.type === 'ORDER_FILL') {
          const level = byOrder.get(tx.orderID);
          if (level !== undefined) {
            remember(level, undefined);
            if (tx.tradeOpened !== undefined) {
              level.tradeID = tx.tradeOpened.tradeID;
              byTrade.set(level.tradeID, level);
            }
          }
          for (const closed of tx.tradesClosed ?? []) {
            const owner = byTrade.get(closed.tradeID);
            if (owner === undefined) continue;
            byTrade.delete(closed.tradeID);
            owner.tradeID = undefined;
            // After a take profit the level is behind the market again: arm it. After a stop loss
            // the market is beyond the grid; the grid follows it once nothing is open.
            if (tx.reason === 'TAKE_PROFIT_ORDER') arm(ctx, owner);
          }
        } else if (tx.type === 'ORDER_CANCEL') {
          // Replaced orders are tracked by recenter(); anything else cancelled (e.g. at the end) is forgotten.
          const level = byOrder.get(tx.orderID);
          if (level !== undefined && tx.replacedByOrderID === undefined) remember(level, undefined);
        }
      },
      onEnd(ctx) {
        if (!p.closeAtEnd) return;
        for (const order of ctx.pendingOrders()) {
          if (order.type === 'LIMIT') ctx.cancelOrder(order.id);
        }
        for (const trade of ctx.openTrades()) ctx.closeTrade(trade.id);
      },
    };
  },
};

export default strategy;
