import type { AccountState } from '../account/state.js';
import { factorTexts } from '../account/home-currency.js';
import type { UnitsAvailable, UnitsAvailableDetails } from '../account/units-available.js';
import { baseCurrency, quoteCurrency } from '../domain/instruments.js';
import { SHOWN_LIQUIDITY } from '../domain/liquidity.js';
import { formatPriceInt } from '../domain/price.js';
import { formatDateTime, type DatetimeFormat, type Micros } from '../domain/time.js';

/** A quote of an instrument on its price grid (integers at displayPrecision). */
export interface Quote {
  readonly instrument: string;
  readonly time: Micros;
  readonly precision: number;
  readonly bid: number;
  readonly ask: number;
  readonly closeoutBid: number;
  readonly closeoutAsk: number;
  /**
   * Until when the quote is a tradeable price: the end of the trading session it was quoted in,
   * -Infinity for a quote in closed hours (market-hours.ts); absent: always tradeable.
   */
  readonly tradeableUntil?: Micros;
}

/** Where the latest quote of an instrument comes from (the API's market data, an account's prices). */
export interface QuoteSource {
  latest(instrument: string): Quote | undefined;
}

/**
 * The v20 ClientPrice of a quote, DateTimes in the client's format, as seen at `now` (default: the
 * quote's time): outside trading hours, or once its session has closed, it is not tradeable
 * (ClientPrice.tradeable and the deprecated status "non-tradeable", oanda-v20-openapi.json).
 */
export function clientPrice(quote: Quote, format: DatetimeFormat = 'RFC3339', now: Micros = quote.time): Record<string, unknown> {
  const p = quote.precision;
  const tradeable = quote.tradeableUntil === undefined || now < quote.tradeableUntil;
  return {
    type: 'PRICE',
    instrument: quote.instrument,
    time: formatDateTime(quote.time, format),
    status: tradeable ? 'tradeable' : 'non-tradeable',
    tradeable,
    bids: [{ price: formatPriceInt(quote.bid, p), liquidity: SHOWN_LIQUIDITY }],
    asks: [{ price: formatPriceInt(quote.ask, p), liquidity: SHOWN_LIQUIDITY }],
    closeoutBid: formatPriceInt(quote.closeoutBid, p),
    closeoutAsk: formatPriceInt(quote.closeoutAsk, p),
  };
}

/** The latest quote an account has seen of an instrument, or undefined before its first one. */
export function accountQuote(state: AccountState, instrument: string): Quote | undefined {
  const slot = state.prices.get(instrument);
  const spec = state.instruments.get(instrument);
  if (slot === undefined || !slot.known || spec === undefined) return undefined;
  return {
    instrument,
    time: slot.time,
    precision: spec.displayPrecision,
    bid: slot.bid,
    ask: slot.ask,
    closeoutBid: slot.closeoutBid,
    closeoutAsk: slot.closeoutAsk,
    tradeableUntil: slot.tradeable ? slot.sessionUntil : Number.NEGATIVE_INFINITY,
  };
}

/**
 * The currencies of the instruments asked for, each once, in the order they first appear (base,
 * then quote): OANDA's getPrices includeHomeConversions, "An entry will be returned for each
 * currency in the set of all base and quote currencies present in the requested instruments list"
 * (oanda-v20-openapi.json).
 */
export function currenciesOf(instruments: readonly string[]): string[] {
  const currencies: string[] = [];
  for (const name of instruments) {
    for (const c of [baseCurrency(name), quoteCurrency(name)]) if (!currencies.includes(c)) currencies.push(c);
  }
  return currencies;
}

/**
 * OANDA's HomeConversions of the currencies of the instruments asked for that the account can
 * convert: gains at mid x (1 - fee), losses at mid x (1 + fee), position values at mid
 * (account/home-currency.ts).
 */
export function homeConversions(state: AccountState, instruments: readonly string[]): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const currency of currenciesOf(instruments)) {
    const factor = factorTexts(state, currency);
    if (factor === null) continue;
    out.push({ currency, accountGain: factor.gain, accountLoss: factor.loss, positionValue: factor.mid });
  }
  return out;
}

/**
 * The deprecated ClientPrice.quoteHomeConversionFactors: an amount of the instrument's quote
 * currency into home, a positive one at the gain factor, a negative one at the loss factor, as
 * fills convert P/L (account/home-currency.ts). Real GET pricing bodies carry it (oandapyV20
 * responses/pricing.py, 2016, positiveUnits below negativeUnits; a 2023 capture in the facts sheet
 * section 8); null when the quote currency cannot be converted yet.
 */
export function quoteHomeConversionFactors(state: AccountState, instrument: string): Record<string, string> | null {
  const factor = factorTexts(state, quoteCurrency(instrument));
  return factor === null ? null : { positiveUnits: factor.gain, negativeUnits: factor.loss };
}

function details(d: UnitsAvailableDetails, precision: number): Record<string, string> {
  return { long: d.long.toFixed(precision), short: d.short.toFixed(precision) };
}

/** ClientPrice.unitsAvailable (account/units-available.ts), units at the instrument's tradeUnitsPrecision. */
export function unitsAvailableJson(ua: UnitsAvailable, precision: number): Record<string, Record<string, string>> {
  return {
    default: details(ua.default, precision),
    reduceFirst: details(ua.reduceFirst, precision),
    reduceOnly: details(ua.reduceOnly, precision),
    openOnly: details(ua.openOnly, precision),
  };
}
