import { unitsAvailable } from '../account/units-available.js';
import { valueAccount } from '../account/valuation.js';
import { ZERO } from '../domain/decimal.js';
import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { accountOf, type V3Call } from './call.js';
import { invalidValue } from './errors.js';
import { parseRequestDateTime } from './wire.js';
import { clientPrice, homeConversions, quoteHomeConversionFactors, unitsAvailableJson, type QuoteSource } from './price.js';
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
  readonly includeUnitsAvailable?: string | undefined;
}

/**
 * GET pricing: the latest price of each instrument that has one (newer than `since`), and the time.
 * Each ClientPrice also carries, as real v20 bodies do (oandapyV20 responses/pricing.py):
 * - unitsAvailable unless includeUnitsAvailable is false (default true, facts sheet section 2);
 * - the deprecated quoteHomeConversionFactors, "absent whenever includeHomeConversions is sent,
 *   whatever its value" (facts sheet section 8); with includeHomeConversions=true the body has
 *   homeConversions for the currencies of the instruments asked for instead.
 * `since` filters prices only: the home conversions are always the current ones.
 */
export function getPricing(call: V3Call, quotes: QuoteSource, q: PricingQuery): V20Response {
  return answer(() => {
    const { state } = accountOf(call);
    const instruments = parseInstruments(call.engine, q.instruments, 'instruments');
    const since = parseTimeQuery(q.since, 'since');
    const withUnits = queryFlag(q.includeUnitsAvailable, true);
    const withConversions = queryFlag(q.includeHomeConversions, false);
    const marginAvailable = withUnits ? valueAccount(state).marginAvailable : ZERO;
    const prices: Json[] = [];
    for (const name of instruments) {
      const quote = quotes.latest(name);
      if (quote === undefined || (since !== undefined && quote.time <= since)) continue;
      const price = clientPrice(quote, 'RFC3339', call.engine.now);
      if (q.includeHomeConversions === undefined) {
        const factors = quoteHomeConversionFactors(state, name);
        if (factors !== null) price['quoteHomeConversionFactors'] = factors;
      }
      const spec = call.engine.instruments.get(name);
      if (withUnits && spec !== undefined)
        price['unitsAvailable'] = unitsAvailableJson(unitsAvailable(state, name, marginAvailable), spec.tradeUnitsPrecision);
      prices.push(price);
    }
    const body: Json = { prices };
    if (withConversions) body['homeConversions'] = homeConversions(state, instruments);
    body['time'] = formatRfc3339(call.engine.now);
    return ok(body);
  });
}
