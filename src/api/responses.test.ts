import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { createOrder } from '../v3/orders.js';
import { serializeBody } from './responses.js';

describe('serializeBody', () => {
  it('prints exactly what JSON.stringify prints, frozen values or not', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined))), fc.boolean(), (body, freeze) => {
        const values = Object.fromEntries(
          Object.entries(body).map(([k, v]) => [k, freeze && typeof v === 'object' && v !== null ? Object.freeze(v) : v]),
        );
        expect(serializeBody(values)).toBe(JSON.stringify(values));
      }),
    );
    // A value's toJSON is passed its key, after other members were printed.
    const keyed = { a: 'x', b: ['1'], c: { toJSON: (key: string) => `key ${key}` } };
    for (const body of [[1, 2], 'text', 3, null, {}, { a: () => 1, b: undefined }, { toJSON: () => 'x' }, keyed])
      expect(serializeBody(body)).toBe(JSON.stringify(body));
  });

  it('prints an array of values, each frozen or not (kept candle views), as JSON.stringify does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.string()), fc.constant(undefined)), fc.boolean())),
        (elements) => {
          const list = elements.map(([v, freeze]) => (freeze && typeof v === 'object' && v !== null ? Object.freeze(v) : v));
          const body = { candles: list, lastTransactionID: '9' };
          expect(serializeBody(body)).toBe(JSON.stringify(body));
          // Again: the kept texts of the frozen ones.
          expect(serializeBody(body)).toBe(JSON.stringify(body));
        },
      ),
    );
  });

  it('prints a frozen body whole, as JSON.stringify does, and once', () => {
    const body = Object.freeze({
      account: Object.freeze({ balance: '100.0000', nested: Object.freeze([1, 'x']) }),
      lastTransactionID: '7',
    });
    expect(serializeBody(body)).toBe(JSON.stringify(body));
    expect(serializeBody(body)).toBe(JSON.stringify(body));
    const withToJson = Object.freeze({ toJSON: () => 'y' });
    expect(serializeBody(withToJson)).toBe(JSON.stringify(withToJson));
    expect(serializeBody(Object.freeze([1, 2]))).toBe('[1,2]');
  });

  it('reuses the text of a frozen value', () => {
    const view = Object.freeze({ balance: '100.0000' });
    expect(serializeBody({ account: view, lastTransactionID: '3' })).toBe('{"account":{"balance":"100.0000"},"lastTransactionID":"3"}');
    // The cached text is the one printed when first seen: frozen objects cannot change.
    expect(serializeBody({ account: view, lastTransactionID: '4' })).toBe('{"account":{"balance":"100.0000"},"lastTransactionID":"4"}');
  });

  it('prints the transactions of an order outcome through their shapes, byte for byte what JSON.stringify prints', () => {
    const accountID = '101-004-1000005-001';
    const time = Date.UTC(2024, 0, 2, 12) * 1000;
    const engine = createEngine({ accounts: [{ id: accountID, currency: 'USD', balance: '100000' }], start: time });
    engine.pushTick({ instrument: 'EUR_USD', time, bid: 1.1, ask: 1.1002 });
    const call = { engine, accountID, requestID: 'r1' };
    const orders: unknown[] = [
      { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000', clientExtensions: { id: 'a"b\\c', comment: 'é\u2028' } },
      { type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.2' }, stopLossOnFill: { distance: '0.01' } },
      { type: 'MARKET', instrument: 'EUR_USD', units: '-1000' },
      { type: 'MARKET', instrument: 'EUR_USD', units: '100000000' },
      { type: 'LIMIT', instrument: 'EUR_USD', units: '100' },
    ];
    for (const order of orders) {
      const body = createOrder(call, order).body;
      expect(serializeBody(body)).toBe(JSON.stringify(body));
    }
  });
});
