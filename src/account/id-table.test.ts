import { describe, expect, it } from 'vitest';
import { Decimal } from '../domain/decimal.js';
import { IdTable, type RecordCodec, type RecordStore } from './id-table.js';

interface Rec {
  name: string;
  state: 'LIVE' | 'ENDED';
  units?: Decimal;
}

const rec = (name: string, state: Rec['state'] = 'LIVE'): Rec => ({ name, state });

const REC_TEXT: RecordCodec<Rec> = {
  text: (r) => JSON.stringify(r),
  of(text) {
    const r = JSON.parse(text) as Rec & { units?: string };
    return r.units === undefined ? r : { ...r, units: new Decimal(r.units) };
  },
};

/** A store in memory (journal/record-file.ts is the one on disk, tested on its own). */
const storeFile = (): RecordStore => {
  const texts = new Map<number, string>();
  return { put: (id, text) => void texts.set(id, text), get: (id) => texts.get(id) };
};

describe('IdTable', () => {
  it('keeps records by ID, lowest first, and counts them once each', () => {
    const table = new IdTable<Rec>();
    table.set(7, rec('seven'));
    table.set(3, rec('three'));
    table.set(12, rec('twelve'));
    table.set(7, rec('SEVEN'));
    expect(table.size).toBe(3);
    expect([...table.keys()]).toEqual([3, 7, 12]);
    expect([...table.values()].map((r) => r.name)).toEqual(['three', 'SEVEN', 'twelve']);
    expect([...table.newestFirst()].map((r) => r.name)).toEqual(['twelve', 'SEVEN', 'three']);
    expect(table.get(7)?.name).toBe('SEVEN');
    expect(table.has(12)).toBe(true);
    expect(table.has(8)).toBe(false);
  });

  it('reads IDs it was never given, or that are not whole numbers, as undefined; refuses to store them', () => {
    const table = new IdTable<Rec>();
    table.set(1, rec('one'));
    for (const id of [0, 2, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) expect(table.get(id)).toBeUndefined();
    for (const id of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => table.set(id, rec('x'))).toThrow(/whole number/);
    expect(table.size).toBe(1);
  });

  it('pages out the oldest ended records beyond the window when trimmed, and every ID still answers', () => {
    const table = new IdTable<Rec>();
    table.page(storeFile(), 2, REC_TEXT);
    for (let id = 1; id <= 6; id += 1) table.set(id, { ...rec(`r${id}`), units: new Decimal(id).negated() });
    for (const id of [4, 1, 5, 2]) {
      (table.forUpdate(id) as Rec).state = 'ENDED';
      table.ended(id);
    }
    // Nothing pages out before the trim: a batch in progress keeps its records.
    expect([1, 2, 4, 5].map((id) => table.resident(id)?.name)).toEqual(['r1', 'r2', 'r4', 'r5']);
    table.trim();
    expect([4, 1].map((id) => table.resident(id))).toEqual([undefined, undefined]);
    expect([5, 2, 3, 6].map((id) => table.resident(id)?.name)).toEqual(['r5', 'r2', 'r3', 'r6']);
    const paged = table.get(4) as Rec;
    expect(paged).toStrictEqual({ name: 'r4', state: 'ENDED', units: new Decimal(-4) });
    expect(paged.units).toBeInstanceOf(Decimal);
    // A read does not take it back: each read is a copy.
    expect(table.resident(4)).toBeUndefined();
    expect(table.get(4)).not.toBe(paged);
    expect(table.size).toBe(6);
    expect([...table.values()].map((r) => r.name)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect([...table.newestFirst()].map((r) => r.name)).toEqual(['r6', 'r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('takes a paged-out record back for an update, keeps the change, and pages it out again later', () => {
    const table = new IdTable<Rec>();
    table.page(storeFile(), 1, REC_TEXT);
    for (let id = 1; id <= 3; id += 1) table.set(id, rec(`r${id}`, 'ENDED'));
    table.ended(1);
    table.ended(2);
    table.trim();
    expect(table.resident(1)).toBeUndefined();
    const back = table.forUpdate(1) as Rec;
    back.name = 'changed';
    expect(table.resident(1)).toBe(back);
    table.trim();
    // 2 ended before 1 came back: 2 goes, 1 stays as the newest ended.
    expect(table.resident(2)).toBeUndefined();
    expect(table.resident(1)?.name).toBe('changed');
    table.ended(3);
    table.trim();
    expect(table.resident(1)).toBeUndefined();
    expect(table.get(1)?.name).toBe('changed');
    expect(table.size).toBe(3);
  });

  it('an unpaged table keeps everything and ignores ended and trim', () => {
    const table = new IdTable<Rec>();
    table.set(1, rec('r1', 'ENDED'));
    table.ended(1);
    table.trim();
    expect(table.resident(1)?.name).toBe('r1');
    expect(table.forUpdate(1)).toBe(table.get(1));
    expect(() => table.page(storeFile(), 0, REC_TEXT)).toThrow(/whole number of at least 1/);
  });
});
