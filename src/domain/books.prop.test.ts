import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookTotal, bucketWidthInt, bucketize, countPercent, type BookEntry } from './books.js';

const entry: fc.Arbitrary<BookEntry> = fc.record({ price: fc.integer({ min: 1, max: 20_000_000 }), long: fc.boolean() });
const width = fc
  .record({ pipLocation: fc.integer({ min: -5, max: 1 }), displayPrecision: fc.integer({ min: 0, max: 6 }) })
  .map(bucketWidthInt);

describe('book properties', () => {
  it('each bucket holds exactly the entries a naive recount puts in [price, price + width)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 300 }), width, (entries, w) => {
        const buckets = bucketize(entries, w);
        for (let i = 1; i < buckets.length; i += 1)
          expect((buckets[i] as { price: number }).price).toBeGreaterThan((buckets[i - 1] as { price: number }).price);
        for (const b of buckets) {
          expect(b.price % w).toBe(0);
          const inside = entries.filter((e) => e.price >= b.price && e.price < b.price + w);
          expect(b.long).toBe(inside.filter((e) => e.long).length);
          expect(b.short).toBe(inside.filter((e) => !e.long).length);
          expect(b.long + b.short).toBeGreaterThan(0);
        }
        expect(bookTotal(buckets)).toBe(entries.length);
      }),
    );
  });

  it('long and short percentages over all buckets sum to 100 within rounding', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 300 }), width, (entries, w) => {
        const buckets = bucketize(entries, w);
        const total = bookTotal(buckets);
        // In units of 0.0001 %: each printed value is off by at most half a unit.
        let sum = 0;
        for (const b of buckets) {
          for (const count of [b.long, b.short]) {
            const text = countPercent(count, total);
            expect(text).toMatch(/^\d{1,3}\.\d{4}$/);
            sum += Number(text.replace('.', ''));
          }
        }
        expect(Math.abs(sum - 1_000_000)).toBeLessThanOrEqual(buckets.length);
      }),
    );
  });
});
