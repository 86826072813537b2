import fc from 'fast-check';
import { from, type Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { mergeByTime, type TickSource } from './merge.js';
import { mergeByTime$ } from './merge-observable.js';
import { ticksFromArray$ } from './observable.js';

/** Sources with time-ordered ticks from a narrow range, so equal times across sources are common. */
const sourcesArb = fc
  .array(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 15 }), { maxLength: 6 })
  .map((sources) =>
    sources.map((times, s) =>
      [...times].sort((a, b) => a - b).map((time, p): Tick => ({ instrument: 'EUR_USD', time, bid: s + 1, ask: s + 1 + p / 100 })),
    ),
  );

/** The specification: a stable sort by time of the concatenation (source index, then position). */
function expected(sources: readonly Tick[][]): Tick[] {
  return sources.flat().sort((a, b) => a.time - b.time);
}

function collect(source: Observable<Tick>): { values: Tick[]; completed: boolean } {
  const result = { values: [] as Tick[], completed: false };
  source.subscribe({ next: (t) => result.values.push(t), complete: () => (result.completed = true) });
  return result;
}

describe('mergeByTime (property)', () => {
  it('equals a stable sort by time of the concatenated sources', () => {
    fc.assert(
      fc.property(sourcesArb, (sources) => {
        const merged = [...mergeByTime(sources)];
        const want = expected(sources);
        expect(merged).toHaveLength(want.length);
        merged.forEach((tick, i) => expect(tick).toBe(want[i]));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same when sources say a lower bound of their times, and opens each only once the merge reaches it', () => {
    fc.assert(
      fc.property(
        sourcesArb,
        fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }), { minLength: 6, maxLength: 6 }),
        (sources, slack) => {
          const out: Tick[] = [];
          // When each source was opened: the number of ticks emitted by then.
          const openedAt: (number | undefined)[] = sources.map(() => undefined);
          const bounds = sources.map((ticks, i) => {
            const cut = slack[i];
            if (cut === undefined) return undefined;
            return Math.min(ticks[0]?.time ?? 25, cut);
          });
          const bounded: TickSource[] = sources.map((ticks, i) => ({
            [Symbol.iterator]: () => {
              openedAt[i] = out.length;
              return ticks[Symbol.iterator]();
            },
            ...(bounds[i] === undefined ? {} : { earliest: () => bounds[i] }),
          }));
          for (const tick of mergeByTime(bounded)) out.push(tick);
          const want = expected(sources);
          expect(out).toHaveLength(want.length);
          out.forEach((tick, i) => expect(tick).toBe(want[i]));
          bounds.forEach((bound, i) => {
            const at = openedAt[i];
            if (bound === undefined) expect(at).toBe(0);
            // Opened before any tick at or after its bound went out, and not while ticks before it remained.
            else {
              expect(at).toBeDefined();
              expect(out.slice(0, at).every((tick) => tick.time < bound)).toBe(true);
              expect(out.slice(at).every((tick) => tick.time >= bound)).toBe(true);
            }
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a source whose bound cannot be told is opened at the start, and its error comes from reading it', () => {
    const bad: TickSource = {
      [Symbol.iterator]: () => {
        throw new Error('unreadable');
      },
      earliest: () => {
        throw new Error('no date in the name');
      },
    };
    const good: Tick[] = [{ instrument: 'EUR_USD', time: 1, bid: 1, ask: 1.1 }];
    expect(() => [...mergeByTime([good, bad])]).toThrow('unreadable');
  });

  it('mergeByTime$ over pullable sources gives the same', () => {
    fc.assert(
      fc.property(sourcesArb, (sources) => {
        const result = collect(mergeByTime$(sources.map((s) => ticksFromArray$(s))));
        expect(result.completed).toBe(true);
        expect(result.values).toEqual(expected(sources));
      }),
      { numRuns: 200 },
    );
  });

  it('mergeByTime$ gives the same whatever the interleaving of pushed, pulled and synchronous sources', () => {
    fc.assert(
      fc.property(
        sourcesArb,
        fc.array(fc.nat(), { maxLength: 120 }),
        fc.array(fc.constantFrom('push', 'pull', 'sync'), { minLength: 6, maxLength: 6 }),
        (sources, schedule, kinds) => {
          const subjects = sources.map(() => new Subject<Tick>());
          const inputs = sources.map((ticks, i) => {
            const kind = kinds[i];
            if (kind === 'pull') return ticksFromArray$(ticks);
            if (kind === 'sync') return from(ticks); // rxjs's own from(): not pullable, pushes all at once
            return subjects[i] as Subject<Tick>;
          });
          const result = collect(mergeByTime$(inputs));
          const pushed = sources.map((_, i) => kinds[i] === 'push');
          const next = sources.map(() => 0);
          const open = () => sources.map((_, i) => i).filter((i) => pushed[i] && next[i] !== -1);
          const step = (i: number): void => {
            const ticks = sources[i] as Tick[];
            const subject = subjects[i] as Subject<Tick>;
            const at = next[i] as number;
            if (at < ticks.length) {
              subject.next(ticks[at] as Tick);
              next[i] = at + 1;
            } else {
              subject.complete();
              next[i] = -1;
            }
          };
          for (const pick of schedule) {
            const candidates = open();
            if (candidates.length === 0) break;
            step(candidates[pick % candidates.length] as number);
          }
          for (let candidates = open(); candidates.length > 0; candidates = open()) step(candidates[0] as number);
          expect(result.completed).toBe(true);
          expect(result.values).toEqual(expected(sources));
        },
      ),
      { numRuns: 300 },
    );
  });
});
