import { describe, expect, it } from 'vitest';
import { accountSummaryView, tradeView } from './views.js';
import { Decimal } from '../domain/decimal.js';
import { CATALOGUE, Sim, fillTx, shape } from './test-helpers.js';
import { effectiveMarginRate } from './valuation.js';

// The conversion fee (facts sheet §14): gains at mid x 0.995, losses at mid x 1.005 by default.
describe('P/L in the home currency', () => {
  it('USD account, EUR_USD: the quote currency is home, factor 1 and no cost; the base factors carry the fee', () => {
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
        gainBaseHome: { factor: '1.09957450' },
        lossBaseHome: { factor: '1.11062550' },
      },
      plHomeConversionCost: '0.00000',
      baseFinancingHomeConversionCost: '0.00000000000000',
      guaranteedExecutionFeeHomeConversionCost: '0',
      homeConversionCost: '0.00000000000000',
    });
    expect(fill.tradesClosed?.[0]).toMatchObject({ plHomeConversionCost: '0.00000', homeConversionCost: '0.00000000000000' });
  });

  it('USD account, USD_JPY: P/L is made in JPY and converted at 1 / USD_JPY mid, less the fee', () => {
    const sim = new Sim();
    sim.quote('USD_JPY', 150, 150.02);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '10000' }));
    expect(open).toMatchObject({
      price: '150.020',
      gainQuoteHomeConversionFactor: '0.00663289',
      lossQuoteHomeConversionFactor: '0.00669955',
      homeConversionFactors: {
        gainQuoteHome: { factor: '0.00663289' },
        lossQuoteHome: { factor: '0.00669955' },
        gainBaseHome: { factor: '1' },
      },
    });
    sim.quote('USD_JPY', 150.5, 150.52);
    const state = sim.account.state;
    // (150.500 - 150.020) x 10000 = 4800 JPY; / 150.510 x 0.995 = 31.73210...; margin and value at mid
    expect(tradeView(state, state.trades.get(4)!)).toMatchObject({ unrealizedPL: '31.7321' });
    expect(accountSummaryView(state)).toMatchObject({ unrealizedPL: '31.7321', NAV: '100031.7321', positionValue: '10000.0000' });
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    expect(close).toMatchObject({
      price: '150.500',
      quotePL: '4800.000',
      pl: '31.7321',
      accountBalance: '100031.7321',
      gainQuoteHomeConversionFactor: '0.00661086',
      lossQuoteHomeConversionFactor: '0.00667730',
      // 4800 / 150.510 x 0.005: what converting at mid would have given more
      plHomeConversionCost: '0.159',
      homeConversionCost: '0.15945784333267',
    });
    expect(close.tradesClosed?.[0]).toMatchObject({
      realizedPL: '31.7321',
      plHomeConversionCost: '0.159',
      homeConversionCost: '0.15945784333267',
    });
    expect(accountSummaryView(state)).toMatchObject({ balance: '100031.7321', pl: '31.7321', unrealizedPL: '0.0000' });
  });

  it('EUR account, EUR_USD: USD P/L converted at 1 / EUR_USD mid less the fee; the base is home', () => {
    const sim = new Sim({ currency: 'EUR' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '10000' }));
    expect(open).toMatchObject({
      gainQuoteHomeConversionFactor: '0.90446323',
      homeConversionFactors: { gainBaseHome: { factor: '1' }, lossBaseHome: { factor: '1' } },
    });
    // 10000 EUR at 3.33 %
    expect(open.tradeOpened?.initialMarginRequired).toBe('333.0000');
    sim.quote('EUR_USD', 1.105, 1.1052);
    const close = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_USD', units: '-10000' }));
    // 48 USD / 1.10510 x 0.995 = 43.21780...
    expect(close).toMatchObject({
      quotePL: '48.00000',
      pl: '43.2178',
      accountBalance: '100043.2178',
      gainQuoteHomeConversionFactor: '0.90037101',
      plHomeConversionCost: '0.21717',
    });
    expect(accountSummaryView(sim.account.state)).toMatchObject({ currency: 'EUR', balance: '100043.2178' });
  });

  it('USD account, EUR_GBP without any GBP_USD quote: GBP converts through EUR_GBP and EUR_USD', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('EUR_GBP', 0.85, 0.8502);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'EUR_GBP', units: '10000' }));
    // GBP -> EUR at 1 / 0.85010, EUR -> USD at 1.10010: 1.29408305 at mid
    expect(open).toMatchObject({
      price: '0.85020',
      gainQuoteHomeConversionFactor: '1.28761263',
      homeConversionFactors: { gainBaseHome: { factor: '1.09459950' } },
    });
    // 10000 x 0.85010 x 1.10010 / 0.85010 = 11001 USD x the margin rate: margin converts at mid
    const rate = effectiveMarginRate(sim.account.state, CATALOGUE.get('EUR_GBP')!);
    expect(open.tradeOpened?.initialMarginRequired).toBe(new Decimal('11001').times(rate).toFixed(4));
    sim.quote('EUR_GBP', 0.852, 0.8522);
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    // 18 GBP x 1.10010 / 0.85210 x 0.995
    expect(close).toMatchObject({ quotePL: '18.00000', pl: '23.1226', plHomeConversionCost: '0.11619' });
  });

  it('a loss converts at the loss rate: mid x 1.005', () => {
    const sim = new Sim();
    sim.quote('USD_JPY', 150, 150.02);
    sim.openTrade('USD_JPY', '10000');
    sim.quote('USD_JPY', 149, 149.02);
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    // (149.000 - 150.020) x 10000 = -10200 JPY / 149.010 x 1.005 = -68.79404...; cost 10200 / 149.010 x 0.005
    expect(close).toMatchObject({ quotePL: '-10200.000', pl: '-68.7940', plHomeConversionCost: '0.342' });
  });

  it('the fee is the account setting: 0 converts at mid', () => {
    const sim = new Sim();
    sim.account.state.homeConversionFee = '0';
    sim.quote('USD_JPY', 150, 150.02);
    sim.openTrade('USD_JPY', '10000');
    sim.quote('USD_JPY', 150.5, 150.52);
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    expect(close).toMatchObject({
      pl: '31.8916',
      gainQuoteHomeConversionFactor: '0.00664408',
      lossQuoteHomeConversionFactor: '0.00664408',
    });
    expect(close).toMatchObject({ plHomeConversionCost: '0.000', homeConversionCost: '0.00000000000000' });
  });

  it('USD account fed only GBP_JPY and USD_JPY: GBP_JPY trades, JPY converting through USD_JPY', () => {
    const sim = new Sim();
    sim.quote('USD_JPY', 150, 150.02);
    sim.quote('GBP_JPY', 190, 190.04);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'GBP_JPY', units: '1000' }));
    // the base GBP converts through GBP_JPY and USD_JPY (190.02 / 150.01 at mid)
    expect(open).toMatchObject({ price: '190.040', homeConversionFactors: { gainBaseHome: { factor: '1.26038197' } } });
    sim.quote('GBP_JPY', 191, 191.04);
    const close = fillTx(sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: '4' }));
    // 960 JPY / 150.010 x 0.995
    expect(close).toMatchObject({ quotePL: '960.000', pl: '6.3676' });
  });

  it('EUR account, USD_JPY with no EUR_JPY quote: JPY converts through USD (USD_JPY, then EUR_USD)', () => {
    const sim = new Sim({ currency: 'EUR' });
    sim.quote('EUR_USD', 1.1, 1.1002);
    sim.quote('USD_JPY', 150, 150.02);
    const open = fillTx(sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '10000' }));
    const jpyToEur = new Decimal(1).dividedBy('150.01').dividedBy('1.1001');
    const usdToEur = new Decimal(1).dividedBy('1.1001');
    expect(open).toMatchObject({
      gainQuoteHomeConversionFactor: jpyToEur.times('0.995').toFixed(8),
      lossQuoteHomeConversionFactor: jpyToEur.times('1.005').toFixed(8),
      homeConversionFactors: { gainBaseHome: { factor: usdToEur.times('0.995').toFixed(8) } },
    });
  });

  it('no chain converts the quote currency: a MARKET order is rejected INSTRUMENT_PRICE_UNKNOWN, a crossed LIMIT rests', () => {
    // A EUR account quoted only USD_JPY: neither JPY nor USD reaches EUR.
    const sim = new Sim({ currency: 'EUR' });
    sim.quote('USD_JPY', 150, 150.02);
    const market = sim.order({ type: 'MARKET', instrument: 'USD_JPY', units: '1000' });
    expect(market.reject?.errorCode).toBe('INSTRUMENT_PRICE_UNKNOWN');
    expect(shape(market.transactions)).toEqual(['MARKET_ORDER_REJECT:INSTRUMENT_PRICE_UNKNOWN']);
    const limit = sim.order({ type: 'LIMIT', instrument: 'USD_JPY', units: '1000', price: '151.000' });
    expect(shape(limit.transactions)).toEqual(['LIMIT_ORDER:CLIENT_ORDER']);
    expect(sim.account.state.pendingCount).toBe(1);
  });

  it('a resting order a quote reaches before any conversion exists keeps waiting, and fills once one does', () => {
    const sim = new Sim({ currency: 'EUR' });
    sim.quote('USD_JPY', 150, 150.02);
    sim.order({ type: 'LIMIT', instrument: 'USD_JPY', units: '1000', price: '149.000' });
    const logged = sim.account.log.length;
    sim.quote('USD_JPY', 148.9, 148.92); // crosses, but JPY reaches no EUR yet
    expect(sim.account.log.length).toBe(logged);
    expect(sim.account.state.pendingCount).toBe(1);
    sim.quote('EUR_USD', 1.1, 1.1002); // JPY -> USD -> EUR now exists
    sim.quote('USD_JPY', 148.8, 148.82);
    expect(shape(sim.account.log.slice(logged))).toEqual(['ORDER_FILL:LIMIT_ORDER']);
    expect(sim.account.state.pendingCount).toBe(0);
  });
});
