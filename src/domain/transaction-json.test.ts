import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonString, jsonValue, rememberJson, transactionJson } from './transaction-json.js';
import type { Transaction } from './transactions.js';

/**
 * The pieces of the journal's JSON lines. That the account core's lines equal JSON.stringify of
 * their transactions is checked on random sessions in src/account/transaction-lines.prop.test.ts.
 */
const asTx = (value: object): Transaction => value as unknown as Transaction;

const nasty = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '-', '"', '\\', '/', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001f', '\u007f', '\ud800', '\udbff', '\udc00', '\udfff', '\u2028', '\u2029', 'é', '😀'), maxLength: 16 });

describe('jsonString', () => {
  it('prints any string exactly as JSON.stringify does', () => {
    fc.assert(fc.property(nasty, (s) => {
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => {
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }), { numRuns: 2000 });
  });

  it('quotes plain strings as they are', () => {
    expect(jsonString('1.10020')).toBe('"1.10020"');
    expect(jsonString('')).toBe('""');
    expect(jsonString('2024-05-06T12:00:00.000000000Z')).toBe('"2024-05-06T12:00:00.000000000Z"');
  });
});

describe('jsonValue', () => {
  it('is JSON.stringify for values inside an object', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expect(jsonValue(v)).toBe(JSON.stringify(v));
    }), { numRuns: 500 });
  });
});

describe('transactionJson', () => {
  it('returns the line remembered for a transaction just built', () => {
    const tx = { type: 'ORDER_CANCEL', orderID: '5' };
    rememberJson(tx, '{"type":"ORDER_CANCEL","orderID":"5"}');
    expect(transactionJson(asTx(tx))).toBe('{"type":"ORDER_CANCEL","orderID":"5"}');
  });

  it('prints anything it has no line for with JSON.stringify', () => {
    const tx = { type: 'DAILY_FINANCING', financing: '1.0000', odd: 'a"b\n' };
    expect(transactionJson(asTx(tx))).toBe(JSON.stringify(tx));
  });

  it('keeps the latest 64 lines only; older transactions go to JSON.stringify', () => {
    const first = { type: 'ORDER_CANCEL', orderID: '1' };
    rememberJson(first, 'REMEMBERED');
    const others = Array.from({ length: 63 }, (_, i) => ({ type: 'ORDER_CANCEL', orderID: String(i + 2) }));
    for (const o of others) rememberJson(o, JSON.stringify(o));
    expect(transactionJson(asTx(first))).toBe('REMEMBERED');
    rememberJson({ type: 'X' }, '{}');
    expect(transactionJson(asTx(first))).toBe(JSON.stringify(first));
    for (const o of others) expect(transactionJson(asTx(o))).toBe(JSON.stringify(o));
  });

  it('returns a flat string that reads back as the same JSON', () => {
    const tx = { type: 'ORDER_CANCEL', orderID: '7', reason: 'CLIENT_REQUEST' };
    const line = ['{"type":"ORDER_CANCEL"', ',"orderID":"7"', ',"reason":"CLIENT_REQUEST"', '}'].reduce((a, b) => `${a}${b}`, '');
    rememberJson(tx, line);
    expect(JSON.parse(transactionJson(asTx(tx)))).toEqual(tx);
  });
});
