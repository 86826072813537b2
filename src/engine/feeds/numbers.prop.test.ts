import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimal, parseDigits, scanDecimal, scanPlainDecimal } from './numbers.js';

const decimalText = fc
  .tuple(fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{1,10}$/), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

function scan(text: string): [number, number] {
  const cursor = { pos: -1 };
  const value = scanDecimal(text, 0, text.length, cursor);
  return [value, cursor.pos];
}

describe('parseDecimal', () => {
  it('equals Number() on plain decimals, including those past the fast path', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(parseDecimal(text, 0, text.length)).toBe(Number(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals Number() on doubles printed by JavaScript', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (x) => {
        const text = String(x);
        expect(parseDecimal(text, 0, text.length)).toBe(x);
      }),
    );
  });

  it('reads a span of a longer string and ignores blanks around it', () => {
    const line = 'x, 1.08463 ,y';
    expect(parseDecimal(line, 2, 11)).toBe(1.08463);
    expect(parseDecimal('-0.5', 0, 4)).toBe(-0.5);
    expect(parseDecimal('1e-3', 0, 4)).toBe(0.001);
  });

  it('gives NaN for text Number() would wrongly accept or that is not a number', () => {
    for (const bad of ['', ' ', '.', '0x10', '1..2', '1.2.3', 'abc', '1,2', 'Infinity', '1e', '+']) {
      expect(parseDecimal(bad, 0, bad.length), bad).toBeNaN();
    }
  });
});

describe('scanDecimal', () => {
  it('agrees with parseDecimal and stops on the comma', () => {
    fc.assert(
      fc.property(decimalText, fc.constantFrom('', ',rest', ',1.5,2'), (text, tail) => {
        const [value, pos] = scan(text + tail);
        expect(value).toBe(parseDecimal(text, 0, text.length));
        expect(pos).toBe(text.length);
      }),
      { numRuns: 1000 },
    );
  });

  it('falls back for blanks and signs, still stopping on the comma', () => {
    expect(scan(' 1.5 ,2')).toEqual([1.5, 5]);
    expect(scan('-2,3')).toEqual([-2, 2]);
    expect(scan('abc,3')[0]).toBeNaN();
    expect(scan(',3')).toEqual([Number.NaN, 0]);
  });
});

describe('scanPlainDecimal', () => {
  const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');
  const plainScan = (text: string, start = 0): [number, number] => {
    const cursor = { pos: -1 };
    const value = scanPlainDecimal(bytes(text), start, text.length, cursor);
    return [value, cursor.pos];
  };

  it('gives scanDecimal’s value and stop on plain fields of up to 15 digits (property)', () => {
    const plain = fc
      .tuple(fc.stringMatching(/^\d{0,8}$/), fc.option(fc.stringMatching(/^\d{0,7}$/), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`))
      .filter((field) => /\d/.test(field));
    fc.assert(
      fc.property(plain, fc.constantFrom('', ',1.2', ','), fc.constantFrom('\n', '\r\n'), (field, rest, eol) => {
        expect(plainScan(field + rest)).toEqual(scan(field + rest));
        // A line's end stops it too (scanDecimal is given the line without its end).
        expect(plainScan(field + eol)).toEqual(scan(field));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives NaN for a field without digits or with too many, and stops short of the comma on any other', () => {
    for (const field of ['', '.', '+1', '-0.5', ' 1', '1234567890123456']) expect(plainScan(`${field},2`)[0], field).toBeNaN();
    for (const field of ['1e-3', '0x10', '1 ', '2-']) expect(plainScan(`${field},2`)[1], field).toBeLessThan(field.length);
    expect(plainScan('1.2.3,4')).toEqual([1.2, 3]);
    expect(plainScan('x,1.5', 2)).toEqual([1.5, 5]);
  });
});

describe('parseDigits', () => {
  it('reads digit runs and rejects anything else', () => {
    expect(parseDigits('20140501', 0, 8)).toBe(20140501);
    expect(parseDigits('12a', 0, 3)).toBe(-1);
    expect(parseDigits('', 0, 0)).toBe(-1);
  });
});
