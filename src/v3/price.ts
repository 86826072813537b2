import type { AccountState } from '../account/state.js';
import { factorTexts } from '../account/home-currency.js';
import { baseCurrency, quoteCurrency, type InstrumentSpec } from '../domain/instruments.js';
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
 * Home conversion factors of every currency of the catalogue the account can convert (OANDA's
 * HomeConversions): gains at mid x (1 - fee), losses at mid x (1 + fee), position values at mid
 * (account/home-currency.ts).
 */
export function homeConversions(state: AccountState, catalogue: ReadonlyMap<string, InstrumentSpec>): Record<string, string>[] {
  const currencies: string[] = [];
  for (const name of catalogue.keys()) {
    for (const c of [baseCurrency(name), quoteCurrency(name)]) if (!currencies.includes(c)) currencies.push(c);
  }
  const out: Record<string, string>[] = [];
  for (const currency of currencies) {
    const factor = factorTexts(state, currency);
    if (factor === null) continue;
    out.push({ currency, accountGain: factor.gain, accountLoss: factor.loss, positionValue: factor.mid });
  }
  return out;
}
