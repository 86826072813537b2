import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../domain/decimal.js';
import { TRADE_TEXT } from './record-text.js';
import { tradePriceDecimal, type TradeRecord } from './state.js';

/** A closed trade as evolve leaves it; its open-price Decimal not made yet. */
function closedTrade(): TradeRecord {
  return {
    id: 7,
    instrument: 'EUR_USD',
    price: '1.10012',
    priceDecimal: undefined,
    openTime: '2024-05-06T12:00:00.000000000Z',
    initialUnits: new Decimal(100),
    initialMarginRequired: '3.3004',
    currentUnits: ZERO,
    unitsInt: 0,
    realizedPL: new Decimal('0.0500'),
    financing: ZERO,
    state: 'CLOSED',
    closeTime: '2024-05-06T12:01:00.000000000Z',
    closingTransactionIDs: ['9'],
    reductions: [],
    clientExtensions: undefined,
    takeProfitOrderID: 8,
    stopLossOrderID: undefined,
    trailingStopLossOrderID: undefined,
  };
}

describe('a trade record paged out as text and read back', () => {
  it('keeps an open-price Decimal not made yet unmade, and makes it from the price when asked', () => {
    const back = TRADE_TEXT.of(TRADE_TEXT.text(closedTrade()));
    expect(Object.hasOwn(back, 'priceDecimal')).toBe(true);
    expect(back.priceDecimal).toBeUndefined();
    expect(tradePriceDecimal(back).toString()).toBe('1.10012');
    expect(back.currentUnits.isZero()).toBe(true);
    expect(back.stopLossOrderID).toBeUndefined();
  });

  it('reads back an open-price Decimal made before paging as the same value', () => {
    const trade = closedTrade();
    const made = tradePriceDecimal(trade);
    const back = TRADE_TEXT.of(TRADE_TEXT.text(trade));
    expect(back.priceDecimal).toBeInstanceOf(Decimal);
    expect(back.priceDecimal?.equals(made)).toBe(true);
    expect(TRADE_TEXT.text(back)).toBe(TRADE_TEXT.text(trade));
  });
});
