import fc from 'fast-check';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { PriceThrottle, throttlePrices, type MarketEvent } from './throttle.js';

const MS = 1000;
const W = 250 * MS;

function tick(instrument: string, time: number, bid = 1): Tick {
  return { instrument, time, bid, ask: bid + 0.0002 };
}

/** Feeds the events through the operator; what came out, as "instrument@ms". */
function run(events: readonly MarketEvent[], windowMicros = W, instruments = ['EUR_USD', 'USD_JPY']): string[] {
  const source = new Subject<MarketEvent>();
  const out: string[] = [];
  const sub = source.pipe(throttlePrices(windowMicros, new Set(instruments))).subscribe((t) => out.push(`${t.instrument}@${t.time / MS}`));
  for (const e of events) source.next(e);
  sub.unsubscribe();
  return out;
}

describe('pricing stream throttle (simulated time)', () => {
  it('sends a price at once when no window is open, holds the later ones and sends the latest at the window end', () => {
    const out = run([
      tick('EUR_USD', 0),
      tick('EUR_USD', 100 * MS),
      tick('EUR_USD', 200 * MS),
      // Reaches the window end (250 ms): the price held last (200 ms) goes out, the next window is [250, 500).
      tick('EUR_USD', 300 * MS),
      500 * MS,
    ]);
    expect(out).toEqual(['EUR_USD@0', 'EUR_USD@200', 'EUR_USD@300']);
  });

  it('lets time passing without a quote, or a quote of another instrument, release a held price', () => {
    expect(run([tick('EUR_USD', 0), tick('EUR_USD', 10 * MS), 249 * MS])).toEqual(['EUR_USD@0']);
    expect(run([tick('EUR_USD', 0), tick('EUR_USD', 10 * MS), 250 * MS])).toEqual(['EUR_USD@0', 'EUR_USD@10']);
    // GBP_USD is not streamed, but its quote moves time.
    expect(run([tick('EUR_USD', 0), tick('EUR_USD', 10 * MS), tick('GBP_USD', 260 * MS)])).toEqual(['EUR_USD@0', 'EUR_USD@10']);
  });

  it('keeps a window per instrument and sends released prices in the order their windows end', () => {
    const out = run([
      tick('EUR_USD', 0),
      tick('USD_JPY', 10 * MS),
      tick('USD_JPY', 20 * MS),
      tick('EUR_USD', 30 * MS),
      tick('EUR_USD', 1000 * MS),
    ]);
    // EUR_USD's window ends at 250 ms, USD_JPY's at 260 ms; then the new EUR_USD quote opens a window.
    expect(out).toEqual(['EUR_USD@0', 'USD_JPY@10', 'EUR_USD@30', 'USD_JPY@20', 'EUR_USD@1000']);
  });

  it('puts a quote exactly at the window end in the next window', () => {
    expect(run([tick('EUR_USD', 0), tick('EUR_USD', 100 * MS), tick('EUR_USD', 250 * MS), 499 * MS])).toEqual(['EUR_USD@0', 'EUR_USD@100']);
  });

  it('sends every quote with a window of 0', () => {
    const events = [tick('EUR_USD', 0), tick('EUR_USD', 0), tick('USD_JPY', 1), tick('GBP_USD', 2), tick('EUR_USD', 3)];
    expect(run(events, 0)).toEqual(['EUR_USD@0', 'EUR_USD@0', 'USD_JPY@0.001', 'EUR_USD@0.003']);
  });

  it('gives each subscription its own windows', () => {
    const source = new Subject<MarketEvent>();
    const operator = throttlePrices(W, new Set(['EUR_USD']));
    const a: number[] = [];
    const b: number[] = [];
    source.pipe(operator).subscribe((t) => a.push(t.time / MS));
    source.next(tick('EUR_USD', 0));
    source.pipe(operator).subscribe((t) => b.push(t.time / MS));
    source.next(tick('EUR_USD', 100 * MS));
    source.next(400 * MS);
    expect(a).toEqual([0, 100]);
    expect(b).toEqual([100]);
  });

  /** Random quote times (ms steps) over two instruments, with clock advances between them. */
  const streams = fc.array(
    fc.record({ step: fc.integer({ min: 0, max: 400 }), instrument: fc.constantFrom('EUR_USD', 'USD_JPY'), advance: fc.boolean() }),
    { maxLength: 60 },
  );

  it('property: per instrument, sends are a window apart, each the price in effect when it goes out, and the last quote always goes out', () => {
    fc.assert(
      fc.property(streams, fc.integer({ min: 1, max: 500 }), (steps, windowMs) => {
        const window = windowMs * MS;
        const throttle = new PriceThrottle(window);
        const sent: { tick: Tick; at: number }[] = [];
        const latest = new Map<string, Tick>();
        const quotes: Tick[] = [];
        let now = 0;
        let seq = 0;
        for (const s of steps) {
          now += s.step * MS;
          const out: Tick[] = [];
          if (s.advance) throttle.advance(now, out);
          else {
            const t = { ...tick(s.instrument, now), bid: (seq += 1) };
            throttle.offer(t, out);
            latest.set(s.instrument, t);
            quotes.push(t);
          }
          for (const t of out) sent.push({ tick: t, at: now });
        }
        const end: Tick[] = [];
        throttle.advance(now + 2 * window, end);
        for (const t of end) sent.push({ tick: t, at: now + 2 * window });
        for (const instrument of ['EUR_USD', 'USD_JPY']) {
          const mine = sent.filter((x) => x.tick.instrument === instrument).map((x) => x.tick);
          // Quote order kept, none twice; the latest quote is never lost.
          for (let i = 1; i < mine.length; i += 1) expect((mine[i] as Tick).bid).toBeGreaterThan((mine[i - 1] as Tick).bid);
          expect(mine.at(-1)).toBe(latest.get(instrument));
          // The windows each send opens (at the quote's time, or at the end of the window it was held in) never overlap.
          const opened: number[] = [];
          for (const t of mine) {
            const prev = opened.at(-1);
            const start = prev !== undefined && t.time < prev + window ? prev + window : t.time;
            if (prev !== undefined) expect(start - prev).toBeGreaterThanOrEqual(window);
            opened.push(start);
            // It is the price in effect when it goes out: no later quote of the instrument came before then.
            expect(quotes.some((q) => q.instrument === instrument && q.bid > t.bid && q.time < start)).toBe(false);
          }
        }
      }),
    );
  });
});
