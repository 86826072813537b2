import fc from 'fast-check';
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseBody } from './json-body.js';

/** The reading before JSON.parse went first: lossless-json alone, then the prototype check. */
function losslessOnly(text: string, exactNumbers: boolean): { value: unknown } | { error: string } {
  let value: unknown;
  try {
    value = parse(text, null, {
      parseNumber: exactNumbers ? (t: string): string => t : Number,
      onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue,
    });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return { value };
}

function reading(text: string, exactNumbers: boolean): { value: unknown } | { error: string } {
  try {
    return { value: parseBody(text, exactNumbers) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** JSON texts and near-JSON texts: valid documents, cut or spliced ones, repeated keys, escapes. */
const texts = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().chain((v) => {
    const t = JSON.stringify(v);
    return fc
      .tuple(fc.nat(t.length), fc.nat(t.length), fc.string({ maxLength: 4 }))
      .map(([a, b, ins]) => t.slice(0, Math.min(a, b)) + ins + t.slice(Math.max(a, b)));
  }),
  fc.constantFrom(
    '{"a":"1","a":"2"}',
    '{"order":{"units":100,"price":1.10}}',
    '{"x":"\\ud800"}',
    '{"x":"\u0001"}',
    ' \t\n{"a" : [ true , false , null ] }\r\n',
    '{"a":1e2}',
    '[-0, 0.1, 1E400]',
    '{"__proto__":{"x":"1"}}',
    '"text"',
    '{"a":"1",}',
    "{'a':'1'}",
    '{"a":NaN}',
  ),
  fc.string({ maxLength: 30 }),
);

describe('parseBody', () => {
  it('reads every text as lossless-json alone did, or refuses it with the same message, with numbers exact or not', () => {
    fc.assert(
      fc.property(texts, fc.boolean(), (text, exactNumbers) => {
        const before = losslessOnly(text, exactNumbers);
        const now = reading(text, exactNumbers);
        if ('error' in before) {
          expect(now).toEqual(before);
          return;
        }
        // A body naming __proto__ or constructor.prototype is refused now as it was after parsing.
        if ('error' in now) expect(now.error).toMatch(/__proto__|constructor/);
        else expect(now.value).toStrictEqual(before.value);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses a key __proto__ or constructor.prototype however its letters are escaped and wherever it is', () => {
    // Each letter as itself or as a \\u escape in either case of hex digits.
    const spelled = (word: string): fc.Arbitrary<string> =>
      fc
        .tuple(
          ...[...word].map((c) =>
            fc.constantFrom(
              c,
              `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
              `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`,
            ),
          ),
        )
        .map((letters) => letters.join(''));
    const poison = fc.oneof(
      spelled('__proto__').map((key) => `{"${key}":{"x":"1"}}`),
      fc.tuple(spelled('constructor'), spelled('prototype')).map(([c, p]) => `{"${c}":{"${p}":{}}}`),
    );
    // Put it at some depth: under keys, in arrays, beside other members.
    const nested = fc
      .tuple(poison, fc.array(fc.constantFrom('key', 'array', 'sibling'), { maxLength: 4 }))
      .map(([text, wraps]) =>
        wraps.reduce(
          (inner, wrap) => (wrap === 'key' ? `{"order":${inner}}` : wrap === 'array' ? `[1,${inner}]` : `{"a":"1","b":${inner}}`),
          text,
        ),
      );
    fc.assert(
      fc.property(nested, fc.boolean(), (text, exactNumbers) => {
        expect(reading(text, exactNumbers)).toEqual({ error: 'the body names __proto__ or constructor.prototype' });
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a number under /v3 as its text', () => {
    expect(parseBody('{"order":{"units":100,"price":1.10}}', true)).toEqual({ order: { units: '100', price: '1.10' } });
    expect(parseBody('{"order":{"units":"100"}}', true)).toEqual({ order: { units: '100' } });
    expect(parseBody('{"price":1.10}', false)).toEqual({ price: 1.1 });
    // Wherever a number token may stand: the whole text, after whitespace, in arrays.
    expect(parseBody('1.10', true)).toBe('1.10');
    expect(parseBody('{"a" :\t\n-0.50}', true)).toEqual({ a: '-0.50' });
    expect(parseBody('[ "x", [2.0]]', true)).toEqual(['x', ['2.0']]);
  });
});
