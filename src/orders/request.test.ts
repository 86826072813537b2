import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../domain/instruments.js';
import { ORDER_TYPES, ORDER_TYPE_RULES, TIME_IN_FORCE, type OrderType } from '../domain/order-types.js';
import type { Micros } from '../domain/time.js';
import { checkOrderRequest, type CheckResult, type OrderRequest } from './request.js';

const NOW: Micros = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
const LATER = '2024-05-07T12:00:00.000000000Z';
const CATALOGUE = buildCatalogue([{ name: 'EUR_USD', tradeUnitsPrecision: 1, minimumTradeSize: '0.5', maximumOrderUnits: '1000.5' }]);

/** The smallest request each type accepts on EUR_USD (dependent orders on a trade of EUR_USD). */
function validRequest(type: OrderType): OrderRequest {
  switch (type) {
    case 'MARKET':
      return { type, instrument: 'GBP_USD', units: '100' };
    case 'LIMIT':
    case 'STOP':
    case 'MARKET_IF_TOUCHED':
      return { type, instrument: 'GBP_USD', units: '-100', price: '1.25000' };
    case 'TAKE_PROFIT':
      return { type, tradeID: '5', price: '1.10000' };
    case 'STOP_LOSS':
      return { type, tradeID: '5', price: '1.05000' };
    case 'TRAILING_STOP_LOSS':
      return { type, tradeID: '5', distance: '0.00500' };
  }
}

function check(type: OrderType, extra: Partial<OrderRequest> = {}, instrument = 'EUR_USD'): CheckResult {
  return checkOrderRequest(
    type,
    { ...validRequest(type), ...extra },
    CATALOGUE,
    ORDER_TYPE_RULES[type].kind === 'DEPENDENT' ? instrument : undefined,
    NOW,
  );
}

function reason(result: CheckResult): string | undefined {
  return result.ok ? undefined : result.rejectReason;
}

describe.each(ORDER_TYPES)('%s requests follow the order-type table', (type) => {
  const rule = ORDER_TYPE_RULES[type];

  it('the smallest valid request passes and echoes the creation transaction type', () => {
    const result = check(type);
    expect(reason(result)).toBeUndefined();
    expect(result.ok && result.order.echo['type']).toBe(rule.transactionType);
  });

  it.each(TIME_IN_FORCE)('time in force %s: accepted exactly where the table allows it', (tif) => {
    const result = check(type, tif === 'GTD' ? { timeInForce: tif, gtdTime: LATER } : { timeInForce: tif });
    expect(reason(result)).toBe((rule.timeInForce as readonly string[]).includes(tif) ? undefined : 'TIME_IN_FORCE_INVALID');
  });

  it('without a time in force, the default is used and echoed', () => {
    const result = check(type);
    expect(result.ok && result.order.timeInForce).toBe(rule.defaultTimeInForce);
    expect(result.ok && result.order.echo['timeInForce']).toBe(rule.defaultTimeInForce);
  });

  it('priceBound, triggerCondition, partialFill and positionFill are echoed only where the type has them', () => {
    const result = check(type, { priceBound: '1.30000', triggerCondition: 'MID', positionFill: 'OPEN_ONLY' });
    expect(reason(result)).toBeUndefined();
    const echo = result.ok ? result.order.echo : {};
    expect('priceBound' in echo).toBe(rule.priceBound);
    expect(echo['triggerCondition']).toBe(rule.triggerCondition ? 'MID' : undefined);
    expect(echo['partialFill']).toBe(rule.kind === 'ENTRY' && rule.triggerCondition ? 'DEFAULT' : undefined);
    expect(echo['positionFill']).toBe(rule.kind === 'ENTRY' ? 'OPEN_ONLY' : undefined);
    expect(result.ok && result.order.priceBoundInt).toBe(rule.priceBound ? 130000 : undefined);
  });

  it('an unknown trigger condition or position fill is refused where the type has the field', () => {
    expect(reason(check(type, { triggerCondition: 'LAST' }))).toBe(rule.triggerCondition ? 'TRIGGER_CONDITION_INVALID' : undefined);
    expect(reason(check(type, { positionFill: 'CLOSE' }))).toBe(rule.kind === 'ENTRY' ? 'ORDER_FILL_POSITION_ACTION_INVALID' : undefined);
  });
});

describe('thresholds', () => {
  it('types triggered by a price need one', () => {
    for (const type of ORDER_TYPES.filter((t) => ORDER_TYPE_RULES[t].threshold === 'PRICE')) {
      expect(reason(check(type, { price: undefined })), type).toBe('PRICE_MISSING');
      expect(reason(check(type, { price: '1.100001' })), type).toBe('PRICE_PRECISION_EXCEEDED');
      expect(reason(check(type, { price: '0' })), type).toBe('PRICE_INVALID');
    }
  });

  it('a stop loss takes exactly one of price and distance; a distance is kept as an integer', () => {
    expect(reason(check('STOP_LOSS', { distance: '0.00100' }))).toBe('STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_SPECIFIED');
    expect(reason(check('STOP_LOSS', { price: undefined }))).toBe('STOP_LOSS_ORDER_PRICE_AND_DISTANCE_BOTH_MISSING');
    const byDistance = check('STOP_LOSS', { price: undefined, distance: '0.00100' });
    expect(byDistance.ok && [byDistance.order.priceInt, byDistance.order.distanceInt]).toEqual([undefined, 100]);
  });

  it('a trailing stop loss needs a distance within the instrument bounds; a price is not echoed', () => {
    expect(reason(check('TRAILING_STOP_LOSS', { distance: undefined }))).toBe('PRICE_DISTANCE_MISSING');
    expect(reason(check('TRAILING_STOP_LOSS', { distance: '0.00010' }))).toBe('PRICE_DISTANCE_MINIMUM_NOT_MET');
    expect(reason(check('TRAILING_STOP_LOSS', { distance: '1.50000' }))).toBe('PRICE_DISTANCE_MAXIMUM_EXCEEDED');
    const result = check('TRAILING_STOP_LOSS', { price: '1.20000' });
    expect(result.ok && 'price' in result.order.echo).toBe(false);
  });
});

describe('units against the instrument limits', () => {
  it('whole units and whole limits (GBP_USD: 1 to 100,000,000)', () => {
    expect(reason(check('MARKET', { units: '100000000' }))).toBeUndefined();
    expect(reason(check('MARKET', { units: '-100000001' }))).toBe('UNITS_LIMIT_EXCEEDED');
    expect(reason(check('MARKET', { units: '0.5' }))).toBe('UNITS_PRECISION_EXCEEDED');
  });

  it('fractional limits from a configured instrument (EUR_USD: 0.5 to 1000.5)', () => {
    const eurUsd = { instrument: 'EUR_USD' };
    expect(reason(check('MARKET', { ...eurUsd, units: '0.4' }))).toBe('UNITS_MINIMUM_NOT_MET');
    expect(reason(check('MARKET', { ...eurUsd, units: '-0.5' }))).toBeUndefined();
    expect(reason(check('MARKET', { ...eurUsd, units: '1000.5' }))).toBeUndefined();
    expect(reason(check('MARKET', { ...eurUsd, units: '1000.6' }))).toBe('UNITS_LIMIT_EXCEEDED');
    expect(reason(check('MARKET', { ...eurUsd, units: '1001' }))).toBe('UNITS_LIMIT_EXCEEDED');
  });
});

describe('echo', () => {
  it('keeps v20 field order, fills defaults and normalizes DateTimes, also on-fill details', () => {
    const result = check('LIMIT', {
      clientExtensions: { id: 'a', extra: 'dropped' } as unknown,
      timeInForce: 'GTD',
      gtdTime: '2024-05-07T14:00:00+02:00',
      stopLossOnFill: { distance: '0.00200', gtdTime: 'x' },
      takeProfitOnFill: { price: '1.30000' },
    });
    // A gtdTime without GTD is not checked, only echoed as sent.
    expect(reason(result)).toBeUndefined();
    const echo = result.ok ? result.order.echo : {};
    expect(Object.keys(echo)).toEqual([
      'type',
      'instrument',
      'units',
      'price',
      'timeInForce',
      'gtdTime',
      'triggerCondition',
      'partialFill',
      'positionFill',
      'clientExtensions',
      'takeProfitOnFill',
      'stopLossOnFill',
    ]);
    expect(echo['gtdTime']).toBe(LATER);
    expect(echo['clientExtensions']).toEqual({ id: 'a' });
    expect(echo['takeProfitOnFill']).toEqual({ price: '1.30000', timeInForce: 'GTC' });
    expect(echo['stopLossOnFill']).toEqual({ distance: '0.00200', gtdTime: 'x', timeInForce: 'GTC' });
  });
});
