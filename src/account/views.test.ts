import { balanceOf } from './state.js';
import { describe, expect, it } from 'vitest';
import { Account } from './account.js';
import { accountChangesStateView, accountChangesView, accountSummaryView, accountView, pendingOrders, positionView } from './views.js';
import { ACCOUNT_ID, CATALOGUE, Sim, T0, USER_ID, cancelTx, fillTx, iso, shape } from './test-helpers.js';

/** Long 10000 EUR_USD @ 1.10020 (trade 4), then the market at 1.10100 / 1.10120 (mid 1.10110). */
function longInProfit(options: ConstructorParameters<typeof Sim>[0] = {}): Sim {
  const sim = new Sim(options);
  sim.quote('EUR_USD', 1.1, 1.1002);
  sim.openTrade('EUR_USD', '10000');
  sim.quote('EUR_USD', 1.101, 1.1012);
  return sim;
}

describe('opening an account', () => {
  it('writes CREATE and the opening deposit, stamped at the open time', () => {
    const sim = new Sim();
    const header = { accountID: ACCOUNT_ID, userID: USER_ID, time: iso(T0) };
    expect(sim.account.log.slice()).toEqual([
      {
        id: '1',
        ...header,
        batchID: '1',
        type: 'CREATE',
        divisionID: 4,
        siteID: 101,
        accountUserID: USER_ID,
        accountNumber: 1,
        homeCurrency: 'USD',
      },
      {
        id: '2',
        ...header,
        batchID: '2',
        type: 'TRANSFER_FUNDS',
        amount: '100000.0000',
        fundingReason: 'CLIENT_FUNDING',
        accountBalance: '100000.0000',
      },
    ]);
  });

  it('a zero balance writes no deposit; an alias and a margin rate are configured', () => {
    const sim = new Sim({ balance: '0', alias: 'main', marginRate: '0.05', currency: 'EUR' });
    expect(shape(sim.account.log.slice())).toEqual(['CREATE', 'CLIENT_CONFIGURE', 'CLIENT_CONFIGURE']);
    expect(sim.account.log.at(1)).toMatchObject({ alias: 'main' });
    expect(sim.account.log.at(2)).toMatchObject({ marginRate: '0.05' });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ alias: 'main', marginRate: '0.05', currency: 'EUR', balance: '0.0000' });
  });

  it('refuses an invalid margin rate, balance or account ID', () => {
    expect(() => Account.open({ id: ACCOUNT_ID, currency: 'USD', marginRate: '2' }, CATALOGUE, T0)).toThrow(/marginRate/);
    expect(() => Account.open({ id: ACCOUNT_ID, currency: 'USD', balance: '-1' }, CATALOGUE, T0)).toThrow(/balance/);
    // An opening deposit TRANSFER_FUNDS would refuse (AMOUNT_INVALID): the account would open empty.
    for (const balance of ['100000.12345', '1000000000000.0001'])
      expect(() => Account.open({ id: ACCOUNT_ID, currency: 'USD', balance }, CATALOGUE, T0)).toThrow(
        /more than 4 decimal places or is over/,
      );
    expect(
      accountSummaryView(Account.open({ id: ACCOUNT_ID, currency: 'USD', balance: '1000000000000' }, CATALOGUE, T0).state).balance,
    ).toBe('1000000000000.0000');
    expect(() => Account.open({ id: '1234567', currency: 'USD' }, CATALOGUE, T0)).toThrow(/account id/);
  });
});

describe('account summary', () => {
  it('NAV = balance + unrealizedPL; marginUsed = units x mid x marginRate; marginAvailable = NAV - marginUsed', () => {
    const sim = longInProfit();
    expect(accountSummaryView(sim.account.state)).toEqual({
      id: ACCOUNT_ID,
      alias: '',
      currency: 'USD',
      balance: '100000.0000',
      createdByUserID: USER_ID,
      createdTime: iso(T0),
      guaranteedStopLossOrderMode: 'DISABLED',
      pl: '0.0000',
      resettablePL: '0.0000',
      resettablePLTime: '0',
      financing: '0.0000',
      commission: '0.0000',
      dividendAdjustment: '0',
      guaranteedExecutionFees: '0.0000',
      marginRate: '0.0333', // no override: the lowest instrument rate, the account's maximum leverage
      openTradeCount: 1,
      openPositionCount: 1,
      pendingOrderCount: 0,
      hedgingEnabled: false,
      unrealizedPL: '8.0000', // (1.10100 - 1.10020) x 10000, at the bid
      NAV: '100008.0000',
      marginUsed: '366.6663', // 10000 x 1.10110 x 0.0333
      marginAvailable: '99641.3337',
      positionValue: '11011.0000',
      marginCloseoutUnrealizedPL: '9.0000', // at mid
      marginCloseoutNAV: '100009.0000',
      marginCloseoutMarginUsed: '366.6663',
      marginCloseoutPercent: '0.00183', // 0.5 x 366.6663 / 100009
      marginCloseoutPositionValue: '11011.0000',
      withdrawalLimit: '99641.3337',
      marginCallMarginUsed: '366.6663',
      marginCallPercent: '0.00367',
      lastTransactionID: '4',
    });
  });

  it('a short is valued at the ask', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '-10000');
    sim.quote('EUR_USD', 1.099, 1.0992);
    expect(accountSummaryView(sim.account.state)).toMatchObject({
      unrealizedPL: '8.0000',
      NAV: '100008.0000',
      marginUsed: '366.0003',
      marginAvailable: '99641.9997',
    });
  });

  it('withdrawalLimit is never negative', () => {
    const sim = new Sim({ balance: '400' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    sim.quote('EUR_USD', 1.095, 1.0952);
    expect(accountSummaryView(sim.account.state)).toMatchObject({
      unrealizedPL: '-52.0000',
      NAV: '348.0000',
      marginUsed: '364.6683',
      marginAvailable: '-16.6683',
      withdrawalLimit: '0.0000',
    });
  });

  it('counts pending orders', () => {
    const sim = longInProfit();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' });
    sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.11000' });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ pendingOrderCount: 2, lastTransactionID: '6' });
    expect(pendingOrders(sim.account.state).map((o) => o.id)).toEqual([5, 6]);
  });
});

describe('CONFIGURE', () => {
  it('sets the alias', () => {
    const sim = new Sim();
    const out = sim.exec({ type: 'CONFIGURE', alias: 'main' });
    expect(out.transactions).toEqual([
      { id: '3', accountID: ACCOUNT_ID, userID: USER_ID, batchID: '3', time: iso(sim.now), type: 'CLIENT_CONFIGURE', alias: 'main' },
    ]);
    expect(out.response).toEqual({ clientConfigureTransaction: out.transactions[0] });
    expect(accountSummaryView(sim.account.state)['alias']).toBe('main');
  });

  it('a margin rate above the instrument rate raises the margin; one below changes nothing', () => {
    const sim = longInProfit();
    sim.exec({ type: 'CONFIGURE', marginRate: '0.05' });
    expect(accountSummaryView(sim.account.state)).toMatchObject({
      marginRate: '0.05',
      marginUsed: '550.5500',
      marginAvailable: '99457.4500',
    });
    sim.exec({ type: 'CONFIGURE', marginRate: '0.02' });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ marginRate: '0.02', marginUsed: '366.6663' });
  });

  it('the effective rate decides INSUFFICIENT_MARGIN', () => {
    const sim = new Sim({ balance: '1000' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.exec({ type: 'CONFIGURE', marginRate: '0.05' });
    // 20000 x 1.10010 x 0.05 = 1100.10 > 1000 (at 0.0333 it would be 732.67)
    expect(cancelTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '20000' })).reason).toBe('INSUFFICIENT_MARGIN');
    expect(fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '18000' })).tradeOpened?.initialMarginRequired).toBe(
      '990.0900',
    );
  });

  it.each([['0'], ['-0.1'], ['1.5'], ['abc'], [0.05]])('marginRate %j: CLIENT_CONFIGURE_REJECT MARGIN_RATE_INVALID', (marginRate) => {
    const sim = longInProfit();
    const out = sim.exec({ type: 'CONFIGURE', marginRate });
    expect(out.transactions).toEqual([
      {
        id: '5',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '5',
        time: iso(sim.now),
        type: 'CLIENT_CONFIGURE_REJECT',
        marginRate,
        rejectReason: 'MARGIN_RATE_INVALID',
      },
    ]);
    expect(out.response).toEqual({ clientConfigureRejectTransaction: out.transactions[0] });
    expect(out.reject).toEqual({ errorCode: 'MARGIN_RATE_INVALID', errorMessage: 'The margin rate provided is invalid', notFound: false });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ marginRate: '0.0333' }); // the default, unchanged
  });

  it('a margin rate of 1 is allowed', () => {
    const sim = new Sim();
    expect(shape(sim.exec({ type: 'CONFIGURE', marginRate: '1' }).transactions)).toEqual(['CLIENT_CONFIGURE']);
  });

  it('nothing to configure, or a non-string alias, is refused', () => {
    const sim = new Sim();
    expect(shape(sim.exec({ type: 'CONFIGURE' }).transactions)).toEqual(['CLIENT_CONFIGURE_REJECT:CLIENT_CONFIGURE_DATA_MISSING']);
    expect(shape(sim.exec({ type: 'CONFIGURE', alias: 7 }).transactions)).toEqual(['CLIENT_CONFIGURE_REJECT:ALIAS_INVALID']);
    expect(sim.account.state.alias).toBe('');
  });
});

describe('TRANSFER_FUNDS', () => {
  it('a deposit and a withdrawal move the balance', () => {
    const sim = new Sim();
    const deposit = sim.exec({ type: 'TRANSFER_FUNDS', amount: '500.5', comment: 'top up' });
    expect(deposit.transactions).toEqual([
      {
        id: '3',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '3',
        time: iso(sim.now),
        type: 'TRANSFER_FUNDS',
        amount: '500.5000',
        fundingReason: 'CLIENT_FUNDING',
        comment: 'top up',
        accountBalance: '100500.5000',
      },
    ]);
    expect(deposit.response).toEqual({ transferFundsTransaction: deposit.transactions[0] });
    const withdrawal = sim.exec({ type: 'TRANSFER_FUNDS', amount: '-1000' });
    expect(withdrawal.transactions[0]).toMatchObject({ type: 'TRANSFER_FUNDS', amount: '-1000.0000', accountBalance: '99500.5000' });
    expect(accountSummaryView(sim.account.state)['balance']).toBe('99500.5000');
  });

  it('a withdrawal is limited by the withdrawal limit (margin available): INSUFFICIENT_FUNDS', () => {
    const sim = new Sim({ balance: '1000' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    // NAV 998 - margin 10000 x 1.10010 x 0.0333 (366.3333) = 631.6667
    expect(accountSummaryView(sim.account.state)['withdrawalLimit']).toBe('631.6667');
    const refused = sim.exec({ type: 'TRANSFER_FUNDS', amount: '-631.6668' });
    expect(refused.transactions).toEqual([
      {
        id: '5',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '5',
        time: iso(sim.now),
        type: 'TRANSFER_FUNDS_REJECT',
        amount: '-631.6668',
        fundingReason: 'CLIENT_FUNDING',
        rejectReason: 'INSUFFICIENT_FUNDS',
      },
    ]);
    expect(refused.response).toEqual({ transferFundsRejectTransaction: refused.transactions[0] });
    expect(refused.reject?.errorCode).toBe('INSUFFICIENT_FUNDS');
    expect(balanceOf(sim.account.state).toString()).toBe('1000');
    const ok = sim.exec({ type: 'TRANSFER_FUNDS', amount: '-631.6667' });
    expect(ok.transactions[0]).toMatchObject({ type: 'TRANSFER_FUNDS', accountBalance: '368.3333' });
  });

  it('a missing amount is refused without inventing one', () => {
    const sim = new Sim();
    const out = sim.exec({ type: 'TRANSFER_FUNDS', amount: undefined });
    expect(out.transactions).toEqual([
      {
        id: '3',
        accountID: ACCOUNT_ID,
        userID: USER_ID,
        batchID: '3',
        time: iso(sim.now),
        type: 'TRANSFER_FUNDS_REJECT',
        fundingReason: 'CLIENT_FUNDING',
        rejectReason: 'AMOUNT_MISSING',
      },
    ]);
  });

  it.each([
    ['0', 'AMOUNT_INVALID'],
    ['abc', 'AMOUNT_INVALID'],
    ['1.00001', 'AMOUNT_INVALID'],
    [undefined, 'AMOUNT_MISSING'],
  ])('amount %j: %s', (amount, reason) => {
    const sim = new Sim();
    const out = sim.exec({ type: 'TRANSFER_FUNDS', amount });
    expect(shape(out.transactions)).toEqual([`TRANSFER_FUNDS_REJECT:${reason}`]);
    expect(balanceOf(sim.account.state).toString()).toBe('100000');
  });
});

describe('position view', () => {
  it('shows units, averagePrice and tradeIDs per side, and no averagePrice for a flat side', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '-1000'); // 4 @ 1.10000
    sim.quote('EUR_USD', 1.1003, 1.1005);
    sim.openTrade('EUR_USD', '-3000'); // 6 @ 1.10030
    const state = sim.account.state;
    const view = positionView(state, state.positions.get('EUR_USD')!);
    // (1000 x 1.10000 + 3000 x 1.10030) / 4000 = 1.100225 -> half up
    expect(view).toEqual({
      instrument: 'EUR_USD',
      long: {
        units: '0',
        pl: '0.0000',
        unrealizedPL: '0.0000',
        resettablePL: '0.0000',
        financing: '0.0000',
        dividendAdjustment: '0.0000',
        guaranteedExecutionFees: '0.0000',
      },
      short: {
        units: '-4000',
        averagePrice: '1.10023',
        tradeIDs: ['4', '6'],
        pl: '0.0000',
        unrealizedPL: '-1.1000',
        resettablePL: '0.0000',
        financing: '0.0000',
        dividendAdjustment: '0.0000',
        guaranteedExecutionFees: '0.0000',
      },
      pl: '0.0000',
      resettablePL: '0.0000',
      financing: '0.0000',
      commission: '0.0000',
      dividendAdjustment: '0.0000',
      guaranteedExecutionFees: '0.0000',
      unrealizedPL: '-1.1000',
      marginUsed: '146.5733', // 4000 x 1.10040 x 0.0333
    });
  });
});

describe('account view and changes', () => {
  it('accountView lists open trades, every traded position and pending orders', () => {
    const sim = longInProfit();
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' }); // 5
    sim.quote('USD_JPY', 150, 150.02);
    sim.openTrade('USD_JPY', '1000'); // 7
    sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '7' });
    const view = accountView(sim.account.state);
    expect((view['trades'] as { id: string }[]).map((t) => t.id)).toEqual(['4']);
    expect((view['positions'] as { instrument: string }[]).map((p) => p.instrument)).toEqual(['EUR_USD', 'USD_JPY']);
    expect((view['orders'] as { id: string }[]).map((o) => o.id)).toEqual(['5']);
    expect(view).toMatchObject({ openTradeCount: 1, openPositionCount: 1, pendingOrderCount: 1, lastTransactionID: '9' });
  });

  it('accountChangesView since an ID reports what the later transactions did', () => {
    const sim = longInProfit(); // up to 4
    const since = sim.lastId;
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' }); // 5, stays pending
    sim.order({ type: 'STOP', instrument: 'EUR_USD', units: '1000', price: '1.11000' }); // 6, cancelled
    sim.exec({ type: 'CANCEL_ORDER', orderSpecifier: '6' }); // 7
    sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4', units: '4000' }); // 8, 9: reduces 4
    sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '1000' }); // 10, 11: no quote -> cancelled
    sim.quote('EUR_USD', 1.0899, 1.09); // fills 5 -> 12, opens trade 12
    const state = sim.account.state;
    const changes = accountChangesView(state, sim.account.log.slice(since));
    const ids = (list: unknown): string[] => (list as { id: string }[]).map((x) => x.id);
    // Every order created in the window, whatever became of it (AccountChanges.ordersCreated).
    expect(ids(changes['ordersCreated'])).toEqual(['5', '6', '8', '10']);
    expect(ids(changes['ordersCancelled'])).toEqual(['6', '10']);
    expect(ids(changes['ordersFilled'])).toEqual(['8', '5']);
    expect(changes['ordersTriggered']).toEqual([]);
    expect(ids(changes['tradesOpened'])).toEqual(['12']);
    expect(ids(changes['tradesReduced'])).toEqual(['4']);
    expect(ids(changes['tradesClosed'])).toEqual([]);
    expect((changes['positions'] as { instrument: string }[]).map((p) => p.instrument)).toEqual(['EUR_USD']);
    expect((changes['transactions'] as { id: string }[]).map((t) => t.id)).toEqual(['5', '6', '7', '8', '9', '10', '11', '12']);
    const fromSeven = accountChangesView(state, sim.account.log.slice(7));
    expect(ids(fromSeven['ordersCancelled'])).toEqual(['10']);
    expect(ids(fromSeven['ordersCreated'])).toEqual(['8', '10']);
  });

  it('ordersCreated holds orders still pending', () => {
    const sim = longInProfit();
    const since = sim.lastId;
    sim.order({ type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' });
    sim.order({ type: 'TAKE_PROFIT', tradeID: '4', price: '1.11000' });
    const changes = accountChangesView(sim.account.state, sim.account.log.slice(since));
    expect((changes['ordersCreated'] as { id: string; state: string }[]).map((o) => [o.id, o.state])).toEqual([
      ['5', 'PENDING'],
      ['6', 'PENDING'],
    ]);
  });

  it('accountChangesStateView carries the price-dependent figures', () => {
    const sim = longInProfit();
    const view = accountChangesStateView(sim.account.state);
    expect(view).toMatchObject({
      unrealizedPL: '8.0000',
      NAV: '100008.0000',
      marginUsed: '366.6663',
      orders: [],
      trades: [{ id: '4', unrealizedPL: '8.0000', marginUsed: '366.6663' }],
      positions: [
        {
          instrument: 'EUR_USD',
          netUnrealizedPL: '8.0000',
          longUnrealizedPL: '8.0000',
          shortUnrealizedPL: '0.0000',
          marginUsed: '366.6663',
        },
      ],
    });
  });
});
