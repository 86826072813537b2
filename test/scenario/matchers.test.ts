import { describe, expect, it } from 'vitest';
import { compare, formatPath, matches } from '../../src/scenario/compare.js';
import { parseScenarioText } from '../../src/scenario/source.js';

/** The expected value of `x:` in a YAML snippet, as the loader produces it. */
function yaml(text: string): unknown {
  return (parseScenarioText(`x: ${text}\n`, 'inline.yaml').data as { x: unknown }).x;
}

describe('plain values', () => {
  it('objects match partially, scalars strictly', () => {
    expect(matches({ a: '1' }, { a: '1', b: 2 })).toBe(true);
    expect(matches({ a: '1' }, { a: 1 })).toBe(false);
    expect(matches({ a: { b: 'x' } }, { a: { b: 'x', c: 'y' } })).toBe(true);
    expect(matches(null, null)).toBe(true);
    expect(matches({ a: null }, {})).toBe(false);
  });

  it('arrays must have the same length and match item by item', () => {
    expect(matches([{ id: '1' }, { id: '2' }], [{ id: '1', t: 'A' }, { id: '2' }])).toBe(true);
    const [m] = compare([{ id: '1' }], [{ id: '1' }, { id: '2', type: 'ORDER_FILL' }]);
    expect(m).toMatchObject({ expected: '1 item(s)', actual: '2 item(s)', note: 'unexpected: 2 ORDER_FILL' });
  });

  it('reports each difference with its path and a hint for decimals', () => {
    const out = compare({ price: '1.1', units: 10, list: ['a'] }, { price: '1.10000', units: '10', list: ['b'] });
    expect(out.map((m) => formatPath(m.path))).toEqual(['price', 'units', 'list[0]']);
    expect(out[0]?.note).toMatch(/!decimal 1.1/);
    expect(out[1]?.note).toMatch(/decimals as strings/);
  });
});

describe('matchers, in YAML tag form and JSON object form alike', () => {
  it.each([
    ['!any', { $any: true }, 'x', undefined],
    ['!id', { $id: true }, '123', 'abc'],
    ['!time', { $time: true }, '2024-01-02T12:00:00.000000000Z', 'yesterday'],
    ['!time 2024-01-02T12:00:00Z', { $time: '2024-01-02T12:00:00Z' }, '1704196800.000000000', '2024-01-02T12:00:01.000000000Z'],
    ['!decimal 1.1', { $decimal: '1.1' }, '1.10000', '1.10001'],
    ['!decimal', { $decimal: null }, '-0.5', 'NaN'],
    ['!range [1, 2]', { $range: [1, 2] }, '1.5', '2.00001'],
    ['!range [null, 2]', { $range: [null, 2] }, '-100', '3'],
    ["!regex '^\\d+$'", { $regex: '^\\d+$' }, '42', '4a'],
    ['!length 2', { $length: 2 }, [1, 2], [1]],
    ['!contains [{id: "2"}]', { $contains: [{ id: '2' }] }, [{ id: '1' }, { id: '2' }], [{ id: '1' }]],
    ['!exact {a: 1}', { $exact: { a: 1 } }, { a: 1 }, { a: 1, b: 2 }],
  ] as const)('%s', (tagged, json, good, bad) => {
    expect(yaml(tagged)).toEqual(json);
    expect(matches(json, good)).toBe(true);
    expect(matches(json, bad)).toBe(false);
  });

  it('!absent passes only when the key is missing', () => {
    expect(matches({ a: yaml('!absent') }, {})).toBe(true);
    expect(matches({ a: yaml('!absent') }, { a: null })).toBe(false);
  });

  it('!exact applies to nested objects too, but not through other matchers', () => {
    expect(matches({ $exact: { a: { b: 1 } } }, { a: { b: 1, c: 2 } })).toBe(false);
    expect(compare({ $exact: { a: 1 } }, { a: 1, z: 3 })[0]).toMatchObject({ path: ['z'], note: 'not allowed by !exact' });
  });

  it('!contains uses each actual item once', () => {
    expect(matches({ $contains: [{ t: 'A' }, { t: 'A' }] }, [{ t: 'A' }, { t: 'B' }])).toBe(false);
    expect(matches({ $contains: [{ t: 'A' }, { t: 'A' }] }, [{ t: 'A' }, { t: 'A' }])).toBe(true);
  });
});
