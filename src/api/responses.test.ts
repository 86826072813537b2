import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
    for (const body of [[1, 2], 'text', 3, null, {}, { a: () => 1, b: undefined }, { toJSON: () => 'x' }])
      expect(serializeBody(body)).toBe(JSON.stringify(body));
  });

  it('reuses the text of a frozen value', () => {
    const view = Object.freeze({ balance: '100.0000' });
    expect(serializeBody({ account: view, lastTransactionID: '3' })).toBe('{"account":{"balance":"100.0000"},"lastTransactionID":"3"}');
    // The cached text is the one printed when first seen: frozen objects cannot change.
    expect(serializeBody({ account: view, lastTransactionID: '4' })).toBe('{"account":{"balance":"100.0000"},"lastTransactionID":"4"}');
  });
});
