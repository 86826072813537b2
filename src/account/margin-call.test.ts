import { balanceOf } from './state.js';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../domain/journal-entry.js';
import type { OrderFillTransaction, Transaction } from '../domain/transactions.js';
import { Account } from './account.js';
import { funded, given, quote, quoted, tradeOpened } from './testing/given.js';
import { ACCOUNT_ID, CATALOGUE, SECOND, Sim, T0, iso } from './test-helpers.js';
import { valueAccount } from './valuation.js';
import { accountSummaryView } from './views.js';

const px = (points: number): number => Number((points / 100_000).toFixed(5));

/** 1,000 USD, long 27,000 EUR_USD bought at the ask 1.10000 (margin rate 0.0333: 988.96 of margin used). */
function leveraged(options: { marginCloseout?: boolean } = {}): Sim {
  const sim = new Sim({ balance: '1000' });
  if (options.marginCloseout === false) sim.account.state.marginCloseoutEnabled = false;
  sim.quote('EUR_USD', 1.0999, 1.1);
  sim.openTrade('EUR_USD', '27000');
  return sim;
}

/** Quotes one point (0.00001) apart with a one-point spread, from bid `from` down to bid `to`. */
function walkDown(sim: Sim, from: number, to: number): void {
  for (let bid = from; bid >= to; bid -= 1) sim.quote('EUR_USD', px(bid), px(bid + 1));
}

function byType(log: readonly Transaction[], type: string): Transaction[] {
  return log.filter((t) => t.type === type);
}

describe('margin closeout', () => {
  it('closes the position at the quote where marginCloseoutPercent reaches 1, instead of riding it into a negative balance', () => {
    const sim = leveraged();
    const before = sim.lastId;
    walkDown(sim, 109_990, 105_000);
    const log = sim.since(before);
    const order = byType(log, 'MARKET_ORDER')[0];
    const fill = byType(log, 'ORDER_FILL')[0] as OrderFillTransaction;
    expect(order).toMatchObject({
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '-27000',
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'MARGIN_CLOSEOUT',
      marginCloseout: { reason: 'MARGIN_CHECK_VIOLATION' },
    });
    // At mid m the closeout NAV is 1000 + 27000 × (m − 1.1) and half the margin used ½ × 27000 × m × 0.0333:
    // at bid 1.08096 (m = 1.080965) 485.9 > 485.7; at bid 1.08095 (m = 1.080955) 485.8 ≤ 485.8 (26550.45 × m ≤ 28700).
    expect(fill).toMatchObject({ orderID: order?.id, reason: 'MARKET_ORDER_MARGIN_CLOSEOUT', units: '-27000', price: '1.08095' });
    expect(fill.tradesClosed).toMatchObject([{ tradeID: '4', units: '-27000', realizedPL: '-514.3500' }]);
    expect(fill.accountBalance).toBe('485.6500');
    // One batch at the quote's time: the closeout order, its fill and the end of the margin call.
    const batch = log.filter((t) => t.batchID === order?.batchID).map((t) => t.type);
    expect(batch).toEqual(['MARKET_ORDER', 'ORDER_FILL', 'MARGIN_CALL_EXIT']);
    expect(fill.time).toBe(order?.time);
    expect(sim.account.state.openTradeCount).toBe(0);
    expect(balanceOf(sim.account.state).toFixed(4)).toBe('485.6500');
    // Nothing more happens on the way down.
    expect(log.at(-1)?.type).toBe('MARGIN_CALL_EXIT');
  });

  it('can be switched off per account: the position rides on and the percents keep growing, never snapping back to 1', () => {
    const account = Account.open({ id: ACCOUNT_ID, currency: 'USD', balance: '1000', marginCloseout: false }, CATALOGUE, T0);
    account.onQuote({ instrument: 'EUR_USD', time: T0 + SECOND, bid: 1.0999, ask: 1.1 });
    account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '27000' } }, T0 + 2 * SECOND);
    account.onQuote({ instrument: 'EUR_USD', time: T0 + 3 * SECOND, bid: 1.06, ask: 1.0601 });
    const v = valueAccount(account.state);
    expect(v.marginCloseoutNAV.isNegative()).toBe(true);
    expect(v.marginCloseoutPercent.greaterThan(1)).toBe(true);
    const view = accountSummaryView(account.state);
    expect(Number(view['marginCloseoutPercent'])).toBeGreaterThan(1);
    expect(Number(view['marginCallPercent'])).toBeGreaterThan(1);
    expect(byType(account.log.slice(), 'MARKET_ORDER')).toHaveLength(1); // the client's own
    expect(byType(account.log.slice(), 'MARGIN_CALL_ENTER')).toHaveLength(1);
  });

  it('closes every position side, instruments in name order and the long side first; pending entry orders stay, dependents go', () => {
    const sim = new Sim({ balance: '2000', hedgingEnabled: true });
    sim.quote('EUR_USD', 1.0999, 1.1);
    sim.quote('AUD_USD', 0.6599, 0.66);
    sim.openTrade('EUR_USD', '30000', { stopLossOnFill: { price: '1.00000' } });
    sim.openTrade('EUR_USD', '-5000');
    sim.openTrade('AUD_USD', '-10000');
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.00000' });
    const before = sim.lastId;
    for (let bid = 109_990; bid >= 100_500; bid -= 10) sim.quote('EUR_USD', px(bid), px(bid + 1));
    const log = sim.since(before);
    const orders = byType(log, 'MARKET_ORDER');
    expect(orders.map((o) => [(o as { instrument: string }).instrument, (o as { units: string }).units])).toEqual([
      ['AUD_USD', '10000'],
      ['EUR_USD', '-30000'],
      ['EUR_USD', '5000'],
    ]);
    expect(byType(log, 'ORDER_FILL').map((f) => (f as OrderFillTransaction).reason)).toEqual([
      'MARKET_ORDER_MARGIN_CLOSEOUT',
      'MARKET_ORDER_MARGIN_CLOSEOUT',
      'MARKET_ORDER_MARGIN_CLOSEOUT',
    ]);
    expect(byType(log, 'ORDER_CANCEL')).toMatchObject([{ reason: 'LINKED_TRADE_CLOSED' }]);
    expect(sim.account.state.openTradeCount).toBe(0);
    expect(sim.account.state.pendingCount).toBe(1); // the LIMIT entry order rests on
  });

  it('is not tried again after a closeout order that could not fill, until the funds or the book change', () => {
    const stuck = given(funded('1000.0000'), tradeOpened('27000', '1.10000'), quoted(1.0999, 1.1), {
      batch: [
        {
          type: 'MARKET_ORDER',
          instrument: 'EUR_USD',
          units: '-27000',
          timeInForce: 'FOK',
          positionFill: 'REDUCE_ONLY',
          reason: 'MARGIN_CLOSEOUT',
          marginCloseout: { reason: 'MARGIN_CHECK_VIOLATION' },
        } as never,
        (state) => ({ type: 'ORDER_CANCEL', orderID: String(state.lastTransactionID), reason: 'MARKET_HALTED' }) as never,
      ],
    });
    stuck.when(quote(1.08, 1.0801)).then({ type: 'MARGIN_CALL_ENTER' });
    const later = stuck.when(quote(1.08, 1.0801)).when({ type: 'TRANSFER_FUNDS', amount: '1' });
    later
      .then({ type: 'TRANSFER_FUNDS' })
      .when(quote(1.0799, 1.08))
      .then(
        { type: 'MARKET_ORDER', reason: 'MARGIN_CLOSEOUT' },
        { type: 'ORDER_FILL', reason: 'MARKET_ORDER_MARGIN_CLOSEOUT' },
        { type: 'MARGIN_CALL_EXIT' },
      );
  });
});

describe('margin call', () => {
  it('enters at marginCallPercent 1, shows the account fields while it lasts, and exits when the price comes back', () => {
    const sim = new Sim({ balance: '2000' });
    sim.quote('EUR_USD', 1.0999, 1.1);
    sim.openTrade('EUR_USD', '50000'); // margin used 1831.42
    const before = sim.lastId;
    for (let bid = 109_990; bid >= 109_600; bid -= 10) sim.quote('EUR_USD', px(bid), px(bid + 1));
    const enter = sim.since(before);
    expect(enter).toMatchObject([{ type: 'MARGIN_CALL_ENTER' }]);
    const enterTime = enter[0]?.time;
    expect(accountSummaryView(sim.account.state)).toMatchObject({ marginCallEnterTime: enterTime, marginCallExtensionCount: 0 });
    expect(Number(accountSummaryView(sim.account.state)['marginCallPercent'])).toBeGreaterThanOrEqual(1);
    sim.quote('EUR_USD', 1.0999, 1.1);
    expect(sim.since(before).map((t) => t.type)).toEqual(['MARGIN_CALL_ENTER', 'MARGIN_CALL_EXIT']);
    const view = accountSummaryView(sim.account.state);
    expect(view['marginCallEnterTime']).toBeUndefined();
    expect(view['marginCallExtensionCount']).toBeUndefined();
  });

  it('is extended once at each 17:00 New York rollover it lasts through (extensionNumber 1, 2, ...)', () => {
    const sim = new Sim({ balance: '2000' });
    sim.quote('EUR_USD', 1.0999, 1.1);
    sim.openTrade('EUR_USD', '50000');
    sim.quote('EUR_USD', 1.096, 1.0961);
    expect(sim.account.state.marginCall).toBeDefined();
    const before = sim.lastId;
    // T0 is Monday 12:00Z; rollovers at 21:00Z on Monday and Tuesday (EDT).
    sim.advanceTo(T0 + 34 * 3600 * SECOND);
    const extends_ = byType(sim.since(before), 'MARGIN_CALL_EXTEND');
    expect(extends_).toMatchObject([
      { extensionNumber: 1, time: iso(T0 + 9 * 3600 * SECOND) },
      { extensionNumber: 2, time: iso(T0 + 33 * 3600 * SECOND) },
    ]);
    // Each in its rollover's batch, after the financing.
    const financing = byType(sim.since(before), 'DAILY_FINANCING');
    expect(extends_[0]?.batchID).toBe(financing[0]?.batchID);
    expect(accountSummaryView(sim.account.state)).toMatchObject({
      marginCallExtensionCount: 2,
      lastMarginCallExtensionTime: iso(T0 + 33 * 3600 * SECOND),
    });
  });

  it('a command that ends the margin call writes MARGIN_CALL_EXIT in its own batch', () => {
    const sim = new Sim({ balance: '2000' });
    sim.quote('EUR_USD', 1.0999, 1.1);
    sim.openTrade('EUR_USD', '50000');
    sim.quote('EUR_USD', 1.096, 1.0961);
    const out = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL' });
    expect(out.transactions.map((t) => t.type)).toEqual(['MARKET_ORDER', 'ORDER_FILL', 'MARGIN_CALL_EXIT']);
    expect(new Set(out.transactions.map((t) => t.batchID)).size).toBe(1);
  });
});

describe('configuring a margin rate', () => {
  it('is refused when it would trigger a margin closeout or a margin call the account is not in', () => {
    const sim = new Sim({ balance: '2000' });
    sim.quote('EUR_USD', 1.0999, 1.1);
    sim.openTrade('EUR_USD', '20000'); // margin used 732.57 at 0.0333, closeout NAV 1999
    const closeout = sim.exec({ type: 'CONFIGURE', marginRate: '0.2' }); // margin 4399.8: half of it above the NAV
    expect(closeout.response['clientConfigureRejectTransaction']).toMatchObject({
      type: 'CLIENT_CONFIGURE_REJECT',
      marginRate: '0.2',
      rejectReason: 'MARGIN_RATE_WOULD_TRIGGER_CLOSEOUT',
    });
    const call = sim.exec({ type: 'CONFIGURE', marginRate: '0.1' }); // margin 2199.9 above the NAV, half of it below
    expect(call.reject?.errorCode).toBe('MARGIN_RATE_WOULD_TRIGGER_MARGIN_CALL');
    expect(sim.exec({ type: 'CONFIGURE', marginRate: '0.05' }).response['clientConfigureTransaction']).toMatchObject({
      marginRate: '0.05',
    });
  });
});

describe('replay', () => {
  it('rebuilds the margin call and the closeout from the journal alone', () => {
    const entries: JournalEntry[] = [];
    const account = Account.open({ id: ACCOUNT_ID, currency: 'USD', balance: '2000' }, CATALOGUE, T0, (e) => entries.push(...e));
    let t = T0;
    const q = (bid: number): void =>
      account.onQuote({ instrument: 'EUR_USD', time: (t += SECOND), bid, ask: px(Math.round(bid * 1e5) + 1) });
    q(1.0999);
    account.execute({ type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '50000' } }, (t += SECOND));
    q(1.096);
    account.advance((t += 12 * 3600 * SECOND)); // through a rollover: one extension
    const replayed = Account.replay({ id: ACCOUNT_ID, currency: 'USD' }, CATALOGUE, entries);
    expect(replayed.state.marginCall).toEqual(account.state.marginCall);
    // The journal has no prices: the replayed account sees the last quote again, which changes nothing.
    replayed.onQuote({ instrument: 'EUR_USD', time: t, bid: 1.096, ask: 1.09601 });
    expect(replayed.log).toHaveLength(account.log.length);
    expect(accountSummaryView(replayed.state)).toEqual(accountSummaryView(account.state));
    q(1.07);
    replayed.onQuote({ instrument: 'EUR_USD', time: t, bid: 1.07, ask: 1.07001 });
    expect(account.log.slice(-3).map((x) => x.type)).toEqual(['MARKET_ORDER', 'ORDER_FILL', 'MARGIN_CALL_EXIT']);
    expect(replayed.log.slice(-4)).toEqual(account.log.slice(-4));
    expect(accountSummaryView(replayed.state)).toEqual(accountSummaryView(account.state));
  });
});
