import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { accountOf, type V3Call } from './call.js';
import { invalidValue } from './errors.js';
import { parseRequestDateTime } from './wire.js';
import { clientPrice, homeConversions, type QuoteSource } from './price.js';
import { queryFlag } from './query-bool.js';
import { answer, ok, type Json, type V20Response } from './response.js';

/** The instruments of a csv, each known to the engine, without repeats; else 400 for `field`. */
export function parseInstruments(engine: Engine, text: string, field: string): string[] {
  const names: string[] = [];
  for (const name of text.split(',')) {
    if (!engine.instruments.has(name)) throw invalidValue(field);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** An optional DateTime query parameter; unreadable: 400 for `field`. */
export function parseTimeQuery(text: string | undefined, field: string): Micros | undefined {
  if (text === undefined) return undefined;
  const t = parseRequestDateTime(text);
  if (t === null) throw invalidValue(field);
  return t;
}

export interface PricingQuery {
  readonly instruments: string;
  readonly since?: string | undefined;
  readonly includeHomeConversions?: string | undefined;
}

/** GET pricing: the latest price of each instrument that has one (newer than `since`), and the time. */
export function getPricing(call: V3Call, quotes: QuoteSource, q: PricingQuery): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    const instruments = parseInstruments(call.engine, q.instruments, 'instruments');
    const since = parseTimeQuery(q.since, 'since');
    const prices: Json[] = [];
    for (const name of instruments) {
      const quote = quotes.latest(name);
      if (quote === undefined || (since !== undefined && quote.time <= since)) continue;
      prices.push(clientPrice(quote, 'RFC3339', call.engine.now));
    }
    const body: Json = { prices };
    if (queryFlag(q.includeHomeConversions, false)) body['homeConversions'] = homeConversions(state, call.engine.instruments);
    body['time'] = formatRfc3339(call.engine.now);
    return ok(body);
  });
}
