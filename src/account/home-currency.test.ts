import { describe, expect, it } from 'vitest';
import { accountSummaryView, tradeView } from './views.js';
import { Sim, fillTx, shape } from './test-helpers.js';

describe('P/L in the home currency', () => {
  it('USD account, EUR_USD: the quote currency is home, factor 1', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.openTrade('EUR_USD', '10000');
    sim.quote('EUR_USD', 1.105, 1.1052);
    const fill = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-10000' }));
    expect(fill).toMatchObject({
      price: '1.10500',
      pl: '48.0000',
      quotePL: '48.00000',
      accountBalance: '100048.0000',
      gainQuoteHomeConversionFactor: '1',
      lossQuoteHomeConversionFactor: '1',
      homeConversionFactors: {
        gainQuoteHome: { factor: '1' },
        lossQuoteHome: { factor: '1' },
        gainBaseHome: { factor: '1.10510000' },
        lossBaseHome: { factor: '1.10510000' },
      },
    });
  });

  it('USD account, USD_JPY: P/L is made in JPY and converted at 1 / USD_JPY mid', () => {
    const sim = new Sim();
    sim.quote('USD_JPY', 150, 150.02);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '10000' }));
    expect(open).toMatchObject({
      price: '150.020',
      gainQuoteHomeConversionFactor: '0.00666622',
      homeConversionFactors: { gainQuoteHome: { factor: '0.00666622' }, gainBaseHome: { factor: '1' } },
    });
    // 10000 USD at 4 %: 400 USD whatever the rate
    expect(open.tradeOpened?.initialMarginRequired).toBe('400.0000');
    sim.quote('USD_JPY', 150.5, 150.52);
    const state = sim.account.state;
    // (150.500 - 150.020) x 10000 = 4800 JPY; / 150.510 = 31.89156...
    expect(tradeView(state, state.trades.get(4)!)).toMatchObject({ unrealizedPL: '31.8916', marginUsed: '400.0000' });
    expect(accountSummaryView(state)).toMatchObject({ unrealizedPL: '31.8916', NAV: '100031.8916', positionValue: '10000.0000' });
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    expect(close).toMatchObject({
      price: '150.500',
      quotePL: '4800.000',
      pl: '31.8916',
      accountBalance: '100031.8916',
      gainQuoteHomeConversionFactor: '0.00664408',
    });
    expect(close.tradesClosed?.[0]?.realizedPL).toBe('31.8916');
    expect(accountSummaryView(state)).toMatchObject({ balance: '100031.8916', pl: '31.8916', unrealizedPL: '0.0000' });
  });

  it('EUR account, EUR_USD: USD P/L converted at 1 / EUR_USD mid; the base is home', () => {
    const sim = new Sim({ currency: 'EUR' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '10000' }));
    expect(open).toMatchObject({
      gainQuoteHomeConversionFactor: '0.90900827',
      homeConversionFactors: { gainBaseHome: { factor: '1' }, lossBaseHome: { factor: '1' } },
    });
    // 10000 EUR at 3.33 %
    expect(open.tradeOpened?.initialMarginRequired).toBe('333.0000');
    sim.quote('EUR_USD', 1.105, 1.1052);
    const close = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-10000' }));
    // 48 USD / 1.10510 = 43.434983...
    expect(close).toMatchObject({
      quotePL: '48.00000',
      pl: '43.4350',
      accountBalance: '100043.4350',
      gainQuoteHomeConversionFactor: '0.90489548',
    });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ currency: 'EUR', balance: '100043.4350' });
  });

  it('USD account, EUR_GBP without any GBP_USD quote: created, then cancelled MARKET_HALTED', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('EUR_GBP', 0.85, 0.8502);
    const out = sim.order({ type: 'MARKET', instrument: 'EUR_GBP', units: '10000' });
    expect(shape(out.transactions)).toEqual(['MARKET_ORDER:CLIENT_ORDER', 'ORDER_CANCEL:MARKET_HALTED']);
    expect(out.reject).toBeUndefined();
    expect(sim.account.state.trades.size).toBe(0);
  });

  it('USD account, EUR_GBP once GBP_USD is quoted: converted at the GBP_USD mid', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('EUR_GBP', 0.85, 0.8502);
    sim.quote('GBP_USD', 1.25, 1.2502);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_GBP', units: '10000' }));
    expect(open).toMatchObject({
      price: '0.85020',
      gainQuoteHomeConversionFactor: '1.25010000',
      homeConversionFactors: { gainBaseHome: { factor: '1.10010000' } },
    });
    // 10000 x 0.85010 x 1.25010 x 0.05
    expect(open.tradeOpened?.initialMarginRequired).toBe('531.3550');
    sim.quote('EUR_GBP', 0.852, 0.8522);
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    // (0.85200 - 0.85020) x 10000 = 18 GBP x 1.25010 = 22.5018 USD
    expect(close).toMatchObject({ quotePL: '18.00000', pl: '22.5018', accountBalance: '100022.5018' });
  });

  it('a pending LIMIT that triggers without a conversion quote is cancelled MARKET_HALTED', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('EUR_GBP', 0.85, 0.8502);
    sim.order({ type: 'LIMIT', instrument: 'EUR_GBP', units: '1000', price: '0.84900' }); // 3
    sim.quote('EUR_GBP', 0.8488, 0.849);
    expect(sim.since(3)).toEqual([
      expect.objectContaining({ id: '4', batchID: '4', type: 'ORDER_CANCEL', orderID: '3', reason: 'MARKET_HALTED' }),
    ]);
  });
});
