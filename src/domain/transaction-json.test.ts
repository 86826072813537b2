import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileShape, jsonString, shaped, transactionJson } from './transaction-json.js';
import { ORDER_CANCEL_JSON } from './transaction-shapes.js';
import type { Transaction } from './transactions.js';

/**
 * The pieces of the journal's JSON lines. That the account core's lines equal JSON.stringify of
 * their transactions is checked on random sessions in src/account/transaction-lines.prop.test.ts.
 */
const asTx = (value: object): Transaction => value as unknown as Transaction;

const nasty = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '0',
    '.',
    '-',
    '"',
    '\\',
    '/',
    '\n',
    '\r',
    '\t',
    '\b',
    '\f',
    '\u0000',
    '\u001f',
    '\u007f',
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\u2028',
    '\u2029',
    'é',
    '😀',
  ),
  maxLength: 16,
});

describe('jsonString', () => {
  it('prints any string exactly as JSON.stringify does', () => {
    fc.assert(
      fc.property(nasty, (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('quotes plain strings as they are', () => {
    expect(jsonString('1.10020')).toBe('"1.10020"');
    expect(jsonString('')).toBe('""');
    expect(jsonString('2024-05-06T12:00:00.000000000Z')).toBe('"2024-05-06T12:00:00.000000000Z"');
  });
});

describe('transactionJson', () => {
  it('prints a shared nested object once and reuses that print for every line that holds it (a quote many fills share)', () => {
    const serialize = compileShape({ object: { type: 'text', quote: { object: { bid: 'digits' }, shared: true } } });
    const quote = { bid: '1.10000' };
    const first = shaped({ type: 'ORDER_FILL', quote }, serialize);
    expect(transactionJson(asTx(first))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    // The kept print is what the next line takes: shown by a change nothing else would let through.
    (quote as { bid: string }).bid = '9.99999';
    const second = shaped({ type: 'ORDER_FILL', quote }, serialize);
    expect(transactionJson(asTx(second))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    // The mark is invisible to JSON.stringify, spreads and Object.keys.
    expect(Object.keys(quote)).toEqual(['bid']);
    expect(JSON.stringify(quote)).toBe('{"bid":"9.99999"}');
  });

  it('keeps the print of a shared object frozen before its first print beside it, and reuses it', () => {
    const serialize = compileShape({ object: { type: 'text', quote: { object: { bid: 'digits' }, shared: true } } });
    let reads = 0;
    const quote = Object.freeze({
      get bid(): string {
        reads += 1;
        return '1.10000';
      },
    });
    const first = shaped({ type: 'ORDER_FILL', quote }, serialize);
    const second = shaped({ type: 'ORDER_FILL', quote }, serialize);
    expect(transactionJson(asTx(first))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    expect(transactionJson(asTx(second))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    expect(transactionJson(asTx(first))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    expect(reads).toBe(1);
  });

  it('prints a nested object that is not shared from its members every time', () => {
    const serialize = compileShape({ object: { type: 'text', quote: { object: { bid: 'digits' } } } });
    const quote = { bid: '1.10000' };
    const tx = shaped({ type: 'ORDER_FILL', quote }, serialize);
    expect(transactionJson(asTx(tx))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.10000"}}');
    quote.bid = '1.20000';
    expect(transactionJson(asTx(tx))).toBe('{"type":"ORDER_FILL","quote":{"bid":"1.20000"}}');
  });

  it('prints anything it has no line for with JSON.stringify', () => {
    const tx = { type: 'DAILY_FINANCING', financing: '1.0000', odd: 'a"b\n' };
    expect(transactionJson(asTx(tx))).toBe(JSON.stringify(tx));
  });

  it("prints a shaped transaction with its shape, members in the shape's order, absent ones left out", () => {
    const tx = shaped(
      {
        type: 'ORDER_CANCEL',
        orderID: '5',
        reason: 'CLIENT_REQUEST',
        id: '6',
        accountID: '101-004-1-001',
        userID: 1,
        batchID: '6',
        time: 'T',
      },
      ORDER_CANCEL_JSON,
    );
    expect(transactionJson(asTx(tx))).toBe(JSON.stringify(tx));
    expect(Object.keys(tx)).not.toContain('undefined');
    expect(tx).toEqual({
      type: 'ORDER_CANCEL',
      orderID: '5',
      reason: 'CLIENT_REQUEST',
      id: '6',
      accountID: '101-004-1-001',
      userID: 1,
      batchID: '6',
      time: 'T',
    });
    expect({ ...tx }).toEqual({
      type: 'ORDER_CANCEL',
      orderID: '5',
      reason: 'CLIENT_REQUEST',
      id: '6',
      accountID: '101-004-1-001',
      userID: 1,
      batchID: '6',
      time: 'T',
    });
  });

  it('prints values as sent (any JSON value, any string) exactly as JSON.stringify does', () => {
    const serialize = compileShape({ object: { type: 'text', any: 'asSent', text: 'text' }, optional: ['any'] });
    fc.assert(
      fc.property(fc.jsonValue(), nasty, (any, text) => {
        const tx = shaped({ type: 'X', any, text }, serialize);
        expect(transactionJson(asTx(tx))).toBe(JSON.stringify(tx));
      }),
      { numRuns: 2000 },
    );
  });

  it('meets a value JSON cannot print with the same TypeError as JSON.stringify', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const tx = shaped({ type: 'ORDER_CANCEL', orderID: '1', clientOrderID: cyclic }, ORDER_CANCEL_JSON);
    expect(() => transactionJson(asTx(tx))).toThrow(TypeError);
  });

  it('returns a string that reads back as the same object', () => {
    const tx = shaped(
      {
        type: 'ORDER_CANCEL',
        orderID: '7',
        reason: 'CLIENT_REQUEST',
        id: '8',
        accountID: '101-004-1-001',
        userID: 1,
        batchID: '8',
        time: 'T',
      },
      ORDER_CANCEL_JSON,
    );
    expect(JSON.parse(transactionJson(asTx(tx)))).toEqual(tx);
  });
});
