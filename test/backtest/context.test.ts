import { describe, expect, it } from 'vitest';
import {
  ParamError,
  StrategyError,
  runBacktest,
  type BacktestResult,
  type Frozen,
  type StrategyContext,
} from '../../src/backtest/index.js';
import type { Transaction } from '../../src/domain/transactions.js';
import { T0, quotes, strategyOf } from './helpers.js';

const TICKS = quotes([
  [1.1, 1.1001], // 0: entries
  [1.103, 1.1031], // 1: the take profit (a sell at 1.10300, watching the bid) fills
  [1.1015, 1.1016], // 2
]);

describe('strategy context: the v3 operations in process', () => {
  it('creates, reads, replaces, cancels, sets TP/SL, closes trades and positions, with v20 objects and Outcomes', () => {
    const events: string[] = [];
    const seen: Record<string, unknown> = {};
    let tradeID = '';
    const def = strategyOf({
      onStart(ctx) {
        events.push('start');
        seen['startNow'] = ctx.now;
        seen['startPrice'] = ctx.price('EUR_USD');
        seen['startBalance'] = ctx.summary().balance;
      },
      onTransaction(tx: Transaction) {
        events.push(`tx:${tx.type}${tx.type === 'ORDER_FILL' ? `:${tx.reason}` : ''}`);
      },
      onTick(tick, ctx: StrategyContext) {
        const i = (tick.time - T0) / 1_000_000;
        events.push(`tick:${i}`);
        if (i === 0) {
          seen['time'] = ctx.time;
          const entry = ctx.createOrder({
            type: 'MARKET',
            instrument: 'EUR_USD',
            units: '10000',
            takeProfitOnFill: { price: '1.10200' },
            stopLossOnFill: { distance: '0.00100' },
          });
          expect(entry.reject).toBeUndefined();
          expect(entry.transactions.map((t) => t.type)).toEqual(['MARKET_ORDER', 'ORDER_FILL', 'TAKE_PROFIT_ORDER', 'STOP_LOSS_ORDER']);
          const fill = entry.response['orderFillTransaction'];
          if (fill?.type !== 'ORDER_FILL') throw new Error('no fill');
          expect(fill.price).toBe('1.10010');
          tradeID = fill.tradeOpened?.tradeID ?? '';
          const trade = ctx.trade(tradeID);
          expect(trade?.currentUnits).toBe('10000');
          expect(trade?.takeProfitOrder?.price).toBe('1.10200');
          expect(trade?.stopLossOrder?.price).toBe('1.09910');
          expect(ctx.openTrades().map((t) => t.id)).toEqual([tradeID]);

          const limit = ctx.createOrder({
            type: 'LIMIT',
            instrument: 'EUR_USD',
            units: '5000',
            price: '1.09500',
            clientExtensions: { id: 'lim-1', tag: 'test' },
          });
          expect(limit.response['orderCreateTransaction']?.type).toBe('LIMIT_ORDER');
          expect(limit.response['orderFillTransaction']).toBeUndefined();
          expect(ctx.order('@lim-1')?.price).toBe('1.09500');
          expect(ctx.pendingOrders().map((o) => o.type)).toEqual(['LIMIT', 'STOP_LOSS', 'TAKE_PROFIT']); // newest first
          expect(ctx.orders({ count: 1 }).map((o) => o.type)).toEqual(['LIMIT']);
          expect(ctx.orders({ state: 'FILLED' }).map((o) => o.type)).toEqual(['MARKET']);

          const replaced = ctx.replaceOrder('@lim-1', { type: 'LIMIT', instrument: 'EUR_USD', units: '5000', price: '1.09600' });
          const cancel = replaced.response['orderCancelTransaction'];
          const created = replaced.response['orderCreateTransaction'];
          expect(cancel?.type === 'ORDER_CANCEL' && cancel.reason).toBe('CLIENT_REQUEST_REPLACED');
          expect(created?.type === 'LIMIT_ORDER' && created.replacesOrderID).toBe(limit.response['orderCreateTransaction']?.id);
          const cancelled = ctx.cancelOrder(created?.id ?? '');
          const c2 = cancelled.response['orderCancelTransaction'];
          expect(c2?.type === 'ORDER_CANCEL' && c2.reason).toBe('CLIENT_REQUEST');

          const missing = ctx.cancelOrder('99999');
          expect(missing.reject?.notFound).toBe(true);
          expect(missing.reject?.errorCode).toBe('ORDER_DOESNT_EXIST');

          const unknown = ctx.createOrder({ type: 'MARKET', instrument: 'ABC_XYZ', units: '1' });
          expect(unknown.invalid?.errorMessage).toBe("Invalid value specified for 'order.instrument'");
          expect(unknown.transactions).toEqual([]);

          const set = ctx.setTradeOrders(tradeID, { takeProfit: { price: '1.10300' }, stopLoss: null });
          expect(set.reject).toBeUndefined();
          const after = ctx.trade(tradeID);
          expect(after?.takeProfitOrder?.price).toBe('1.10300');
          expect(after?.stopLossOrder).toBeUndefined();

          const partial = ctx.closeTrade(tradeID, '4000');
          const reduce = partial.response['orderFillTransaction'];
          expect(reduce?.type === 'ORDER_FILL' && reduce.tradeReduced?.units).toBe('-4000');
          expect(ctx.trade(tradeID)?.currentUnits).toBe('6000');
          expect(ctx.position('EUR_USD').long.units).toBe('6000');
          expect(ctx.position('USD_JPY').long.units).toBe('0');
          expect(ctx.openPositions().map((p) => p.instrument)).toEqual(['EUR_USD']);

          const prices = ctx.pricing(['EUR_USD', 'USD_JPY']);
          expect(prices.map((p) => p.instrument)).toEqual(['EUR_USD']);
          expect(prices[0]?.bids[0]?.price).toBe('1.10000');
          expect(prices[0]?.asks[0]?.price).toBe('1.10010');
          expect(ctx.instrument('EUR_USD')).toMatchObject({ displayPrecision: 5, pipLocation: -4 });
          expect(ctx.instrument('FOO_BAR')).toBeUndefined();
          expect(ctx.account().trades.map((t) => t.id)).toEqual([tradeID]);
          ctx.log('entered\nlong');
          seen['navAfterTick0'] = ctx.summary().NAV;
          seen['unrealizedAfterTick0'] = ctx.summary().unrealizedPL;
        }
        if (i === 2) {
          expect(ctx.openTrades()).toEqual([]);
          expect(ctx.trade(tradeID)?.state).toBe('CLOSED');
          const flat = ctx.closePosition('EUR_USD', { longUnits: 'ALL' });
          expect(flat.reject).toBeDefined();
          expect(ctx.closePosition('FOO_BAR', { longUnits: 'ALL' }).invalid).toBeDefined();
          // A JavaScript strategy that leaves the body out gets the API's answer to an empty body.
          const loose = ctx as unknown as Record<string, (...args: unknown[]) => { invalid?: unknown; reject?: unknown }>;
          for (const outcome of [
            loose['closePosition']?.('EUR_USD'),
            loose['setTradeOrders']?.(tradeID, null),
            loose['setOrderClientExtensions']?.('1'),
          ])
            expect(outcome?.invalid ?? outcome?.reject).toBeDefined();
        }
      },
      onEnd(ctx) {
        events.push('end');
        seen['since'] = ctx.transactionsSince('0').length;
        seen['lastID'] = ctx.summary().lastTransactionID;
      },
    });
    const result = runBacktest({ strategy: def, ticks: TICKS });

    expect(seen['startNow']).toBe(T0);
    expect(seen['startPrice']).toBeUndefined();
    expect(seen['startBalance']).toBe('100000.0000');
    expect(seen['time']).toBe('2024-01-02T10:00:00.000000000Z');
    expect(seen['since']).toBe(result.transactions.length);
    expect(seen['lastID']).toBe(String(result.transactions.length));
    // Account opening is delivered after onStart; a tick's own fills before onTick; a hook's
    // transactions right after the hook.
    expect(events.slice(0, 5)).toEqual(['start', 'tx:CREATE', 'tx:TRANSFER_FUNDS', 'tick:0', 'tx:MARKET_ORDER']);
    const tp = events.indexOf('tx:ORDER_FILL:TAKE_PROFIT_ORDER');
    expect(tp).toBeGreaterThan(events.indexOf('tick:0'));
    expect(tp).toBeLessThan(events.indexOf('tick:1'));
    expect(events.at(-1)).toBe('end');
    expect(result.strategyLog).toEqual(['2024-01-02T10:00:00.000000000Z entered long']);

    // One trade: 4,000 closed at the bid 1.10000 (-0.40), 6,000 by the take profit at 1.10300 (+17.40).
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({
      direction: 'LONG',
      units: '10000',
      state: 'CLOSED',
      realizedPL: '17.0000',
      closeReason: 'TAKE_PROFIT_ORDER',
      closePrice: '1.10180',
    });
    expect(result.metrics).toMatchObject({ trades: 1, closedTrades: 1, winners: 1, netPL: 17, fills: 3 });
    expect(result.summary.balance).toBe('100017.0000');
    // The equity point taken after tick 0's fills marks the open trade to market as v20's NAV does.
    const atT0 = result.equity.time
      .map((t, k) => [t, k] as const)
      .filter(([t, k]) => t === T0 && result.equity.kind[k] === 2)
      .at(-1);
    expect(atT0).toBeDefined();
    expect(seen['unrealizedAfterTick0']).not.toBe('0.0000');
    expect(result.equity.nav[atT0?.[1] ?? -1]).toBeCloseTo(Number(seen['navAfterTick0']), 6);
    // Every transaction as the journal writes it.
    expect(result.transactionLines).toEqual(result.transactions.map((t) => JSON.stringify(t)));
  });

  it('lists orders and trades newest first with v20 paging defaults', () => {
    let checked = false;
    const def = strategyOf({
      onTick(tick, ctx) {
        if (tick.time !== T0) return;
        for (let k = 0; k < 60; k += 1)
          ctx.createOrder({ type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: (1.09 - k * 0.0001).toFixed(5) });
        expect(ctx.orders()).toHaveLength(50);
        expect(ctx.orders({ count: 500 })).toHaveLength(60);
        expect(ctx.pendingOrders()).toHaveLength(60);
        const first = ctx.orders({ count: 2 });
        expect(Number(first[0]?.id)).toBeGreaterThan(Number(first[1]?.id));
        expect(ctx.orders({ beforeID: first[1]?.id ?? '', count: 1 })[0]?.id).toBe(String(Number(first[1]?.id) - 1));
        expect(() => ctx.orders({ count: 501 })).toThrow(/count/);
        checked = true;
      },
    });
    runBacktest({ strategy: def, ticks: TICKS });
    expect(checked).toBe(true);
  });

  it('stops with a StrategyError naming the hook and the simulated time', () => {
    const def = strategyOf(
      {
        onTick(tick) {
          if (tick.time > T0) throw new Error('boom');
        },
      },
      {},
      'broken',
    );
    expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(StrategyError);
    expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(
      'strategy broken failed in onTick at 2024-01-02T10:00:01.000000000Z: boom',
    );
    // Where the strategy threw, for a sweep's runs whose stack stays on their thread.
    expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(/: boom \(\/.*\/test\/backtest\/context\.test\.ts:\d+:\d+\)$/);
  });

  it('hands out transactions frozen: a write throws where the strategy made it and the run reports what happened', () => {
    const enter = (ctx: StrategyContext): Frozen<Transaction> | undefined =>
      ctx.createOrder({ type: 'MARKET', instrument: 'EUR_USD', units: '10000', takeProfitOnFill: { price: '1.10200' } }).response[
        'orderFillTransaction'
      ];
    const writes: string[] = [];
    const attempt = (label: string, write: () => void): void => {
      try {
        write();
        writes.push(`${label}: written`);
      } catch (error) {
        writes.push(`${label}: ${error instanceof TypeError ? 'TypeError' : String(error)}`);
      }
    };
    const writer = strategyOf({
      onTransaction(tx: Transaction) {
        if (tx.type === 'ORDER_FILL' && tx.reason === 'TAKE_PROFIT_ORDER')
          attempt('onTransaction', () => void ((tx as { pl: string }).pl = '1000000.0000'));
      },
      onTick(tick, ctx: StrategyContext) {
        if (tick.time !== T0) return;
        const fill = enter(ctx);
        attempt('response', () => void ((fill as { units: string }).units = '999'));
        // Nested objects too: the trade opened, and the quote many fills share.
        attempt('tradeOpened', () => void ((fill as { tradeOpened: { units: string } }).tradeOpened.units = '999'));
        attempt('fullPrice', () => void ((fill as { fullPrice: { closeoutBid: string } }).fullPrice.closeoutBid = '9.99999'));
        const create = ctx.transactionsSince('0').find((tx) => tx.type === 'MARKET_ORDER');
        attempt('transactionsSince', () => void ((create as { units: string }).units = '1'));
      },
    });
    const reader = strategyOf({
      onTick(tick, ctx: StrategyContext) {
        if (tick.time === T0) enter(ctx);
      },
    });
    const written = runBacktest({ strategy: writer, ticks: TICKS });
    expect(writes).toEqual([
      'response: TypeError',
      'tradeOpened: TypeError',
      'fullPrice: TypeError',
      'transactionsSince: TypeError',
      'onTransaction: TypeError',
    ]);
    const read = runBacktest({ strategy: reader, ticks: TICKS });
    expect(JSON.stringify(written.transactions)).toBe(JSON.stringify(read.transactions));
    expect(written.metrics).toEqual(read.metrics);
    // The result holds the same objects: every transaction of the log, the account's own first ones too.
    expect(read.transactions.map((tx) => `${tx.type}${unfrozenPath(tx) ?? ''}`)).toEqual(read.transactions.map((tx) => tx.type));
  });

  /** Where `value` holds an object that is not frozen ('.a.b'), or undefined when all of it is. */
  function unfrozenPath(value: unknown, path = ''): string | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    if (!Object.isFrozen(value)) return path === '' ? ' (itself)' : path;
    for (const [key, member] of Object.entries(value)) {
      const inner = unfrozenPath(member, `${path}.${key}`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }

  // Read-only in their types too: these writes do not compile (npm run typecheck fails without the errors).
  function writesDoNotCompile(tx: Frozen<Transaction>, outcome: ReturnType<StrategyContext['createOrder']>): void {
    // @ts-expect-error a handed transaction is read-only
    tx.time = '';
    if (tx.type === 'ORDER_FILL' && tx.tradeOpened !== undefined) {
      // @ts-expect-error and so is what it holds
      tx.tradeOpened.units = '1';
    }
    // @ts-expect-error an Outcome's transactions too
    outcome.transactions.push(tx);
  }
  function resultWritesDoNotCompile(result: BacktestResult): void {
    const first = result.transactions[0];
    // @ts-expect-error the result's transactions are the same read-only objects
    if (first !== undefined) first.time = '';
  }
  void resultWritesDoNotCompile;
  void writesDoNotCompile;

  it('reports a failing create() as a StrategyError too', () => {
    const def = {
      name: 'picky',
      params: {},
      create: () => {
        throw new Error('bad params');
      },
    };
    expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(
      'strategy picky failed in create at 2024-01-02T10:00:00.000000000Z: bad params',
    );
  });

  it('refuses asynchronous hooks, and their rejections do not escape the run', async () => {
    const def = strategyOf({ onTick: (async () => undefined) as unknown as () => void });
    expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(/returned a Promise/);
    const unhandled: unknown[] = [];
    const onRejection = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const throwing = strategyOf({
        onTick: (async () => {
          throw new Error('boom');
        }) as unknown as () => void,
      });
      expect(() => runBacktest({ strategy: throwing, ticks: TICKS })).toThrow(
        'strategy test: onTick returned a Promise; hooks must be synchronous',
      );
      const asyncCreate = { name: 'later', params: {}, create: (async () => Promise.reject(new Error('boom'))) as unknown as () => object };
      expect(() => runBacktest({ strategy: asyncCreate, ticks: TICKS })).toThrow('strategy later: create returned a Promise');
      // Node reports an unhandled rejection after the microtasks of the turn.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(unhandled).toEqual([]);
  });

  it('refuses hooks that are not functions when create() returns them', () => {
    for (const [hooks, message] of [
      [{ onTick: 5 }, 'strategy test: onTick must be a function, got number'],
      [{ onStart: 'go' }, 'strategy test: onStart must be a function, got string'],
      [{ onTransaction: null }, 'strategy test: onTransaction must be a function, got null'],
      [{ onEnd: {} }, 'strategy test: onEnd must be a function, got object'],
    ] as const) {
      const def = strategyOf(hooks as never);
      expect(() => runBacktest({ strategy: def, ticks: TICKS })).toThrow(new StrategyError(message));
    }
  });

  it('checks parameters against the defaults', () => {
    const def = strategyOf({}, { fast: 10, name: 'x' });
    expect(() => runBacktest({ strategy: def, ticks: TICKS, params: { slow: 3 } })).toThrow(ParamError);
    expect(() => runBacktest({ strategy: def, ticks: TICKS, params: { fast: '3' } })).toThrow(/expected a number/);
    expect(runBacktest({ strategy: def, ticks: TICKS, params: { fast: 3 } }).params).toEqual({ fast: 3, name: 'x' });
  });

  it('passes the resolved parameters to create() and the context', () => {
    let created: unknown;
    let inContext: unknown;
    const def = {
      name: 'params',
      params: { fast: 10, slow: 30 },
      create(p: { fast: number; slow: number }) {
        created = p;
        return { onStart: (ctx: StrategyContext<{ fast: number; slow: number }>) => void (inContext = ctx.params) };
      },
    };
    runBacktest({ strategy: def, ticks: TICKS, params: { slow: 50 } });
    expect(created).toEqual({ fast: 10, slow: 50 });
    expect(inContext).toEqual({ fast: 10, slow: 50 });
  });

  it('opens the account with the given currency, balance and hedging', () => {
    const def = strategyOf({
      onTick(tick, ctx) {
        if (tick.time !== T0) return;
        ctx.createOrder({ type: 'MARKET', instrument: 'EUR_USD', units: '1000' });
        ctx.createOrder({ type: 'MARKET', instrument: 'EUR_USD', units: '-1000' });
      },
    });
    const result = runBacktest({ strategy: def, ticks: TICKS, account: { currency: 'USD', balance: '2500.5', hedgingEnabled: true } });
    expect(result.initialBalance).toBe('2500.5');
    expect(result.summary.hedgingEnabled).toBe(true);
    expect(result.trades.map((t) => t.direction)).toEqual(['LONG', 'SHORT']);
    expect(result.metrics.initialBalance).toBe(2500.5);
  });
});
