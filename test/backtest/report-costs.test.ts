import { describe, expect, it } from 'vitest';
import { METRIC_NAMES, runBacktest } from '../../src/backtest/index.js';
import { renderReportHtml } from '../../src/backtest/report-html.js';
import { costCounts } from '../../src/backtest/report-costs.js';
import type { Transaction } from '../../src/domain/transactions.js';
import { T0, quotes, strategyOf } from './helpers.js';

/** Buys `units` of `instrument` at the first tick and closes every trade at the tick `closeAt` (if given). */
function buyAndHold(instrument: string, units: string, closeAt?: number) {
  return strategyOf({
    onTick(tick, ctx) {
      if (tick.time === T0) ctx.createOrder({ type: 'MARKET', instrument, units });
      if (closeAt !== undefined && tick.time === T0 + closeAt * 1_000_000) {
        for (const t of ctx.openTrades()) ctx.closeTrade(t.id);
      }
    },
  });
}

describe('report: conversion costs and margin closeouts', () => {
  it('counts the margin call and the closeout of a 1,000 USD account long 27,000 EUR_USD', () => {
    // As scenarios/margin/margin-closeout.yaml: margin call at 1.09950, closeout at bid 1.08095.
    const ticks = quotes([
      [1.0999, 1.1],
      [1.0995, 1.09951],
      [1.09, 1.09001],
      [1.08095, 1.08096],
      [1.05, 1.05001],
    ]);
    const result = runBacktest({ strategy: buyAndHold('EUR_USD', '27000'), ticks, account: { currency: 'USD', balance: '1000' } });
    expect(result.metrics).toMatchObject({ marginCalls: 1, marginCloseouts: 1, finalBalance: 485.65, conversionCost: 0 });
  });

  it('sums the conversion fee of the fills (USD account, P/L in JPY), as scenarios/home-currency/conversion-fee.yaml', () => {
    const ticks = quotes(
      [
        [150.0, 150.02],
        [150.5, 150.52],
      ],
      'USD_JPY',
    );
    const result = runBacktest({ strategy: buyAndHold('USD_JPY', '10000', 1), ticks });
    // 4800 JPY gained at a mid of 150.510: 4800 / 150.510 x 0.005 = 0.15945784... USD.
    expect(result.metrics).toMatchObject({
      conversionCostPL: 0.1595,
      conversionCostFinancing: 0,
      conversionCost: 0.1595,
      marginCalls: 0,
      marginCloseouts: 0,
      realizedPL: 31.7321,
    });
  });

  it('adds the fee on daily financing of a position whose financing is in JPY', () => {
    // Short 100,000 USD_JPY over the 17:00 New York rollover: financing paid in JPY converts at the loss factor.
    const ticks = quotes(
      [
        [150.0, 150.02],
        [150.1, 150.12],
      ],
      'USD_JPY',
      T0,
      13 * 3600 * 1_000_000,
    );
    const result = runBacktest({ strategy: buyAndHold('USD_JPY', '-100000'), ticks });
    const daily = result.transactions.filter((t) => t.type === 'DAILY_FINANCING');
    expect(daily).toHaveLength(1);
    // |quoteFinancing| 2515.23616438356164 JPY x (0.00669955 - 0.00663289) / 2 = 0.08383: the fee's part of the 16.8510 paid.
    expect(result.metrics).toMatchObject({
      financing: -16.851,
      conversionCostFinancing: 0.0838,
      conversionCostPL: 0,
      conversionCost: 0.0838,
    });
    const html = renderReportHtml(result);
    expect(html).toContain('Conversion cost');
    expect(html).toContain('0.0838');
    expect(html).toContain('Margin calls / closeouts');
  });

  it('takes the financing part as |quoteFinancing| x (loss - gain factor) / 2, i.e. mid x f, whatever the rounding of financing', () => {
    const factors = (gain: string, loss: string) => ({
      gainQuoteHome: { factor: gain },
      lossQuoteHome: { factor: loss },
      gainBaseHome: { factor: '1' },
      lossBaseHome: { factor: '1' },
    });
    const journal = [
      // Paid 1,500 JPY at mid 1/150 with f = 0.005: -10 x 1.005 = -10.05 USD, 0.05 of it the fee.
      {
        type: 'DAILY_FINANCING',
        positionFinancings: [
          {
            instrument: 'USD_JPY',
            quoteFinancing: '-1500',
            financing: '-10.0500',
            homeConversionFactors: factors('0.00663333', '0.00670000'),
          },
          { instrument: 'EUR_USD', quoteFinancing: '-2.49996', financing: '-2.5000', homeConversionFactors: factors('1', '1') },
        ],
      },
      { type: 'ORDER_FILL', homeConversionCost: '0.15945784333267' },
      { type: 'ORDER_FILL', homeConversionCost: '0.00000000000000' },
      { type: 'MARGIN_CALL_ENTER' },
      { type: 'MARGIN_CALL_EXIT' },
      { type: 'MARKET_ORDER', reason: 'MARGIN_CLOSEOUT' },
      { type: 'MARKET_ORDER', reason: 'MARGIN_CLOSEOUT' },
      { type: 'MARKET_ORDER', reason: 'CLIENT_ORDER' },
    ] as unknown as Transaction[];
    const c = costCounts(journal);
    // 1500 x (0.00670000 - 0.00663333) / 2 = 0.0500025; EUR_USD's factors of 1 add nothing although its financing is rounded.
    expect(c.conversionCostFinancing.toString()).toBe('0.0500025');
    expect(c.conversionCostPL.toString()).toBe('0.15945784333267');
    expect(c.marginCalls).toBe(1);
    expect(c.marginCloseouts).toBe(2);
  });

  it('prints the new metrics in METRIC_NAMES order, after spreadCost', () => {
    const result = runBacktest({ strategy: buyAndHold('EUR_USD', '1000'), ticks: quotes([[1.1, 1.1002]]) });
    expect(Object.keys(result.metrics)).toEqual([...METRIC_NAMES]);
    const at = METRIC_NAMES.indexOf('spreadCost');
    expect(METRIC_NAMES.slice(at + 1, at + 6)).toEqual([
      'conversionCostPL',
      'conversionCostFinancing',
      'conversionCost',
      'marginCalls',
      'marginCloseouts',
    ]);
  });
});
