/**
 * The candles of several instruments as one sequence in time order, equal times in the order the
 * instruments were named: what makes a candle file's last line say how far a download got.
 * Each instrument's pages are pulled only when its candles run out.
 */
import type { CandleLine } from './candle-file.js';

interface Source {
  readonly index: number;
  readonly pages: AsyncIterator<CandleLine[]>;
  buffer: CandleLine[];
  position: number;
  done: boolean;
}

export interface MergeHooks {
  /** Candles already written (a resume): passed over. */
  readonly skip: (candle: CandleLine, index: number) => boolean;
  /** Called before each page request, e.g. to write what is merged so far. */
  readonly beforeFetch: () => void;
}

async function head(source: Source, hooks: MergeHooks): Promise<CandleLine | undefined> {
  for (;;) {
    while (source.position >= source.buffer.length && !source.done) {
      hooks.beforeFetch();
      const next = await source.pages.next();
      if (next.done === true) source.done = true;
      else {
        source.buffer = next.value;
        source.position = 0;
      }
    }
    const candle = source.buffer[source.position];
    if (candle === undefined || !hooks.skip(candle, source.index)) return candle;
    source.position += 1;
  }
}

export async function* mergeCandles(pages: readonly AsyncIterator<CandleLine[]>[], hooks: MergeHooks): AsyncGenerator<CandleLine> {
  const sources: Source[] = pages.map((p, index) => ({ index, pages: p, buffer: [], position: 0, done: false }));
  for (;;) {
    // The earliest head; on equal times the instrument named first (strict <, sources in order).
    let best: { source: Source; candle: CandleLine } | undefined;
    for (const source of sources) {
      const candle = await head(source, hooks);
      if (candle !== undefined && (best === undefined || candle.at < best.candle.at)) best = { source, candle };
    }
    if (best === undefined) return;
    best.source.position += 1;
    yield best.candle;
  }
}
