import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.js';

describe('IdTable', () => {
  it('keeps records by ID, lowest first, and counts them once each', () => {
    const table = new IdTable<string>();
    table.set(7, 'seven');
    table.set(3, 'three');
    table.set(12, 'twelve');
    table.set(7, 'SEVEN');
    expect(table.size).toBe(3);
    expect([...table.keys()]).toEqual([3, 7, 12]);
    expect([...table.values()]).toEqual(['three', 'SEVEN', 'twelve']);
    expect(table.get(7)).toBe('SEVEN');
    expect(table.has(12)).toBe(true);
    expect(table.has(8)).toBe(false);
  });

  it('reads IDs it was never given, or that are not whole numbers, as undefined; refuses to store them', () => {
    const table = new IdTable<string>();
    table.set(1, 'one');
    for (const id of [0, 2, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(table.get(id)).toBeUndefined();
    for (const id of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => table.set(id, 'x')).toThrow(/whole number/);
    expect(table.size).toBe(1);
  });
});
