/**
 * The candles of one instrument between two times, fetched page by page through
 * GET /v3/instruments/{instrument}/candles with `from` + `count` (facts sheet §8 "Candles": at most
 * 5,000 per request; from and to together may not span more, so paging uses count, not to). The
 * next page starts at the last candle received with includeFirst=false, the documented way to
 * continue without repeating it.
 */
import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';
import type { CandleLine, Ohlc } from './candle-file.js';
import { getJson, RemoteError, type RetryEvents, type RetryPolicy } from './v20-http.js';

export interface CandleQuery {
  readonly baseUrl: string;
  readonly token: string;
  readonly instrument: string;
  readonly granularity: string;
  /** v20's `price`: B and A always, M when asked for. */
  readonly price: string;
  /** Inclusive. */
  readonly from: Micros;
  /** Exclusive: candles starting at or after it are not taken. */
  readonly to: Micros;
  readonly pageSize: number;
  /** Keep a candle still forming (complete: false); it ends the instrument's download. */
  readonly includeIncomplete: boolean;
  readonly retry: RetryPolicy;
  readonly events?: RetryEvents;
}

function ohlcOf(value: unknown, what: string): Ohlc {
  const v = value as Partial<Record<'o' | 'h' | 'l' | 'c', unknown>> | undefined;
  if (v === undefined || typeof v.o !== 'string' || typeof v.h !== 'string' || typeof v.l !== 'string' || typeof v.c !== 'string')
    throw new RemoteError(`${what}: a candle without o/h/l/c prices`);
  return { o: v.o, h: v.h, l: v.l, c: v.c };
}

function candleOf(raw: unknown, q: CandleQuery, what: string): CandleLine {
  const c = raw as Record<string, unknown>;
  const time = typeof c['time'] === 'string' ? c['time'] : '';
  const at = parseDateTime(time, 'RFC3339');
  if (at === null) throw new RemoteError(`${what}: a candle with an unreadable time ${JSON.stringify(c['time'])}`);
  const mid = q.price.includes('M') ? { mid: ohlcOf(c['mid'], what) } : {};
  return {
    instrument: q.instrument,
    granularity: q.granularity,
    time,
    at,
    bid: ohlcOf(c['bid'], what),
    ask: ohlcOf(c['ask'], what),
    ...mid,
    volume: typeof c['volume'] === 'number' ? c['volume'] : Number(c['volume']),
    complete: c['complete'] !== false,
  };
}

/** The pages of candles in [from, to), each non-empty, in time order. */
export async function* candlePages(q: CandleQuery): AsyncGenerator<CandleLine[]> {
  let cursor = q.from;
  let first = true;
  const what = `candles of ${q.instrument}`;
  for (;;) {
    const url = new URL(`${q.baseUrl}/v3/instruments/${encodeURIComponent(q.instrument)}/candles`);
    url.searchParams.set('price', q.price);
    url.searchParams.set('granularity', q.granularity);
    url.searchParams.set('from', formatRfc3339(cursor));
    url.searchParams.set('count', String(q.pageSize));
    url.searchParams.set('includeFirst', String(first));
    const body = (await getJson(url, q.token, q.retry, what, q.events)) as { candles?: unknown };
    if (!Array.isArray(body.candles)) throw new RemoteError(`${what}: the answer has no candles list`);
    const page: CandleLine[] = [];
    let last = false;
    for (const raw of body.candles) {
      const candle = candleOf(raw, q, what);
      if (candle.at < cursor || (!first && candle.at === cursor)) continue;
      if (candle.at >= q.to) {
        last = true;
        break;
      }
      if (!candle.complete) {
        // The candle still forming is the newest there is: nothing follows it yet.
        if (q.includeIncomplete) page.push(candle);
        last = true;
        break;
      }
      page.push(candle);
    }
    if (page.length > 0) yield page;
    const end = page.at(-1);
    // An empty page: the server has nothing newer (a short page is not taken as the end, as a
    // server may cap count below what was asked).
    if (last || end === undefined) return;
    cursor = end.at;
    first = false;
  }
}
