import { describe, expect, it } from 'vitest';
import type { PriceLevel } from '../domain/tick.js';
import type { OrderFillTransaction, OrderTransaction } from '../domain/transactions.js';
import { cancelTx, createTx, fillTx, Sim } from './test-helpers.js';

/** EUR_USD 1.10000/1.10020 with three levels a side (made-up sizes). */
const BIDS: PriceLevel[] = [
  { price: 1.1, liquidity: 1000 },
  { price: 1.09998, liquidity: 2000 },
  { price: 1.09995, liquidity: 5000 },
];
const ASKS: PriceLevel[] = [
  { price: 1.1002, liquidity: 1000 },
  { price: 1.10022, liquidity: 2000 },
  { price: 1.10025, liquidity: 5000 },
];

function leveled(sim: Sim, bids: PriceLevel[] = BIDS, asks: PriceLevel[] = ASKS): void {
  sim.step();
  sim.account.onQuote({ instrument: 'EUR_USD', time: sim.now, bid: bids[0]?.price ?? 1.1, ask: asks[0]?.price ?? 1.1002, bids, asks });
}

function market(sim: Sim, units: string, extra: Record<string, unknown> = {}) {
  return sim.order({ type: 'MARKET', instrument: 'EUR_USD', units, ...extra });
}

describe('MARKET and IOC orders walk the levels', () => {
  it('a buy larger than the top level takes the next ones; fullVWAP is volume-weighted, rounded up for a buy', () => {
    const sim = new Sim();
    leveled(sim);
    const fill = fillTx(market(sim, '3000'));
    // (1000 x 1.10020 + 2000 x 1.10022) / 3000 = 1.1002133.. -> 1.10022 on the grid
    expect(fill).toMatchObject({ units: '3000', requestedUnits: '3000', price: '1.10022', fullVWAP: '1.10022' });
    expect(fill.tradeOpened).toMatchObject({ units: '3000', price: '1.10022' });
    expect(fill.fullPrice.asks).toEqual([
      { price: '1.10020', liquidity: 1000 },
      { price: '1.10022', liquidity: 2000 },
      { price: '1.10025', liquidity: 5000 },
    ]);
    expect(fill.fullPrice.bids).toHaveLength(3);
  });

  it('a sell walks the bids, rounded down', () => {
    const sim = new Sim();
    leveled(sim);
    const fill = fillTx(market(sim, '-4000'));
    // (1000 x 1.10000 + 2000 x 1.09998 + 1000 x 1.09995) / 4000 = 1.0999775 -> 1.09997
    expect(fill).toMatchObject({ units: '-4000', price: '1.09997' });
  });

  it('FOK (the MARKET default) that the levels cannot fill completely is cancelled INSUFFICIENT_LIQUIDITY', () => {
    const sim = new Sim();
    leveled(sim);
    const out = market(sim, '9000');
    expect(cancelTx(out)).toMatchObject({ type: 'ORDER_CANCEL', reason: 'INSUFFICIENT_LIQUIDITY' });
    expect(out.response['orderFillTransaction']).toBeUndefined();
    expect(sim.account.state.openTradeCount).toBe(0);
  });

  it('IOC fills what the levels hold and the rest is not filled', () => {
    const sim = new Sim();
    leveled(sim);
    const out = market(sim, '9000', { timeInForce: 'IOC' });
    expect(fillTx(out)).toMatchObject({ units: '8000', requestedUnits: '9000' });
    expect(out.response['orderCancelTransaction']).toBeUndefined();
  });

  it('a level one fill used is gone for the next order at the same quote, and back at the next quote', () => {
    const sim = new Sim();
    leveled(sim);
    expect(fillTx(market(sim, '1000')).price).toBe('1.10020');
    expect(fillTx(market(sim, '1000')).price).toBe('1.10022');
    expect(cancelTx(market(sim, '7000')).reason).toBe('INSUFFICIENT_LIQUIDITY');
    leveled(sim);
    expect(fillTx(market(sim, '1000')).price).toBe('1.10020');
  });

  it('a quote without levels keeps unlimited liquidity, shown as one bucket of 10,000,000', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const fill = fillTx(market(sim, '500000'));
    expect(fill).toMatchObject({ units: '500000', price: '1.10020' });
    expect(fill.fullPrice.asks).toEqual([{ price: '1.10020', liquidity: 10000000 }]);
  });

  it('a side without levels stays unlimited', () => {
    const sim = new Sim();
    sim.step();
    sim.account.onQuote({ instrument: 'EUR_USD', time: sim.now, bid: 1.1, ask: 1.1002, bids: BIDS });
    expect(fillTx(market(sim, '20000')).price).toBe('1.10020');
    expect(cancelTx(market(sim, '-20000')).reason).toBe('INSUFFICIENT_LIQUIDITY');
  });

  it('a priceBound stops the walk: FOK short of liquidity within it is cancelled', () => {
    const sim = new Sim();
    leveled(sim);
    expect(cancelTx(market(sim, '3000', { priceBound: '1.10020' })).reason).toBe('INSUFFICIENT_LIQUIDITY');
    expect(fillTx(market(sim, '3000', { priceBound: '1.10020', timeInForce: 'IOC' }))).toMatchObject({ units: '1000', price: '1.10020' });
  });
});

describe('closes fill beyond the levels at the closeout price', () => {
  it('a trade close larger than the bids takes them and the closeout bid for the rest', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const tradeId = sim.openTrade('EUR_USD', '10000');
    sim.step();
    sim.account.onQuote({
      instrument: 'EUR_USD',
      time: sim.now,
      bid: 1.1,
      ask: 1.1002,
      closeoutBid: 1.0999,
      closeoutAsk: 1.1003,
      bids: BIDS,
      asks: ASKS,
    });
    const fill = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: String(tradeId) }));
    // 1000 x 1.10000 + 2000 x 1.09998 + 5000 x 1.09995 + 2000 x 1.09990 = 10999.59 / 10000 -> 1.09995
    expect(fill).toMatchObject({ units: '-10000', price: '1.09995', reason: 'MARKET_ORDER_TRADE_CLOSE' });
    expect(sim.account.state.openTradeCount).toBe(0);
  });
});

describe('resting orders filled in part are reissued for the rest', () => {
  it('a LIMIT crossed on creation takes the levels within its price and is reissued for the rest', () => {
    const sim = new Sim();
    leveled(sim);
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '5000', price: '1.10022', clientExtensions: { id: 'my-limit' } });
    const create = createTx(out);
    expect(fillTx(out)).toMatchObject({
      orderID: create.id,
      units: '3000',
      requestedUnits: '5000',
      price: '1.10022',
      reason: 'LIMIT_ORDER',
    });
    const reissued = out.response['orderReissueTransaction'] as OrderTransaction;
    expect(reissued).toMatchObject({
      type: 'LIMIT_ORDER',
      instrument: 'EUR_USD',
      units: '2000',
      price: '1.10022',
      timeInForce: 'GTC',
      reason: 'REPLACEMENT',
      replacesOrderID: create.id,
      clientExtensions: { id: 'my-limit' },
    });
    expect(out.response['orderReissueRejectTransaction']).toBeUndefined();
    const order = sim.account.state.orders.get(Number(reissued.id));
    expect(order?.state).toBe('PENDING');
    expect(sim.account.state.clientOrderIds.get('my-limit')).toBe(Number(reissued.id));
    // The next quote with liquidity fills the reissued order.
    leveled(sim);
    const last = sim.account.log.at(-1) as OrderFillTransaction;
    expect(last).toMatchObject({ type: 'ORDER_FILL', orderID: reissued.id, units: '2000' });
  });

  it('a resting STOP a quote fills in part is reissued in the quote batch', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const stop = createTx(sim.order({ type: 'STOP', instrument: 'EUR_USD', units: '-6000', price: '1.09996' }));
    const before = sim.lastId;
    leveled(sim, [
      { price: 1.09995, liquidity: 1000 },
      { price: 1.0999, liquidity: 1500 },
    ]);
    const batch = sim.since(before);
    expect(batch.map((t) => t.type)).toEqual(['ORDER_FILL', 'STOP_ORDER']);
    expect(batch[0]).toMatchObject({ orderID: stop.id, units: '-2500', requestedUnits: '-6000' });
    expect(batch[1]).toMatchObject({
      units: '-3500',
      price: '1.09996',
      reason: 'REPLACEMENT',
      replacesOrderID: stop.id,
      batchID: batch[0]?.batchID,
    });
  });

  it('a MARKET_IF_TOUCHED filled in part on creation cannot be reissued: INVALID_REISSUE_IMMEDIATE_PARTIAL_FILL', () => {
    const sim = new Sim();
    leveled(sim);
    // The market is already at or beyond the MIT's price: it fills at once.
    const out = sim.order({ type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '-9000', price: '1.10000' });
    const created = createTx(out);
    if (out.response['orderFillTransaction'] === undefined) return; // the MIT rests: nothing to reissue
    expect(fillTx(out).units).toBe('-8000');
    expect(out.response['orderReissueRejectTransaction']).toMatchObject({
      type: 'MARKET_IF_TOUCHED_ORDER_REJECT',
      units: '-1000',
      reason: 'REPLACEMENT',
      intendedReplacesOrderID: created.id,
      rejectReason: 'INVALID_REISSUE_IMMEDIATE_PARTIAL_FILL',
    });
  });

  it('FOK and IOC LIMIT orders are never reissued', () => {
    const sim = new Sim();
    leveled(sim);
    const out = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '5000', price: '1.10022', timeInForce: 'IOC' });
    expect(fillTx(out).units).toBe('3000');
    expect(out.response['orderReissueTransaction']).toBeUndefined();
    leveled(sim);
    const fok = sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '5000', price: '1.10022', timeInForce: 'FOK' });
    expect(cancelTx(fok).reason).toBe('INSUFFICIENT_LIQUIDITY');
  });
});

describe('REDUCE_ONLY with FOK is all or nothing', () => {
  it('a FOK reduction larger than the position is cancelled; IOC reduces what there is', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '2500');
    const fok = market(sim, '-5000', { positionFill: 'REDUCE_ONLY' });
    expect(cancelTx(fok)).toMatchObject({ reason: 'POSITION_CLOSEOUT_FAILED' });
    expect(sim.account.state.openTradeCount).toBe(1);
    const ioc = market(sim, '-5000', { positionFill: 'REDUCE_ONLY', timeInForce: 'IOC' });
    expect(fillTx(ioc)).toMatchObject({ units: '-2500', requestedUnits: '-5000' });
    expect(sim.account.state.openTradeCount).toBe(0);
  });

  it('a FOK reduction within the position fills', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '2500');
    expect(fillTx(market(sim, '-2500', { positionFill: 'REDUCE_ONLY' })).units).toBe('-2500');
  });
});
