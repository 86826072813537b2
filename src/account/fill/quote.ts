import { formatPriceInt } from '../../domain/price.js';
import { formatRfc3339 } from '../../domain/time.js';
import type { FillPrice, HomeConversionFactors } from '../../domain/transactions.js';
import type { AccountMemo, FactorsMemo, QuoteMemo } from '../memo.js';
import type { PriceSlot } from '../state.js';

/** Unlimited top-of-book liquidity is shown as one bucket of this size. */
export const SHOWN_LIQUIDITY = 10_000_000;

/**
 * The quote a fill took, as v20 prints it. Every fill of one quote prints the same object, so
 * consecutive fills at an unchanged quote share it (transactions are never changed once written).
 */
export function fillPrice(memo: AccountMemo, slot: PriceSlot, precision: number): QuoteMemo {
  const last = memo.lastQuote;
  if (last !== undefined && last.slot === slot && last.time === slot.time && last.bid === slot.bid && last.ask === slot.ask
    && last.closeoutBid === slot.closeoutBid && last.closeoutAsk === slot.closeoutAsk && last.precision === precision) {
    return last;
  }
  const bid = formatPriceInt(slot.bid, precision);
  const ask = formatPriceInt(slot.ask, precision);
  const price: FillPrice = {
    closeoutBid: formatPriceInt(slot.closeoutBid, precision),
    closeoutAsk: formatPriceInt(slot.closeoutAsk, precision),
    timestamp: formatRfc3339(slot.time),
    bids: [{ price: bid, liquidity: SHOWN_LIQUIDITY }],
    asks: [{ price: ask, liquidity: SHOWN_LIQUIDITY }],
  };
  const json = `{"closeoutBid":"${price.closeoutBid}","closeoutAsk":"${price.closeoutAsk}","timestamp":"${price.timestamp}","bids":[{"price":"${bid}","liquidity":${SHOWN_LIQUIDITY}}],"asks":[{"price":"${ask}","liquidity":${SHOWN_LIQUIDITY}}]}`;
  const memoed: QuoteMemo = { slot, time: slot.time, bid: slot.bid, ask: slot.ask, closeoutBid: slot.closeoutBid, closeoutAsk: slot.closeoutAsk, precision, price, json };
  memo.lastQuote = memoed;
  return memoed;
}

/** The four conversion factors of a fill; shared by consecutive fills with the same factors. */
export function conversionFactors(memo: AccountMemo, quote: string, base: string): FactorsMemo {
  const last = memo.lastFactors;
  if (last !== undefined && last.quote === quote && last.base === base) return last;
  const factors: HomeConversionFactors = {
    gainQuoteHome: { factor: quote },
    lossQuoteHome: { factor: quote },
    gainBaseHome: { factor: base },
    lossBaseHome: { factor: base },
  };
  const json = `{"gainQuoteHome":{"factor":"${quote}"},"lossQuoteHome":{"factor":"${quote}"},"gainBaseHome":{"factor":"${base}"},"lossBaseHome":{"factor":"${base}"}}`;
  const memoed: FactorsMemo = { quote, base, factors, json };
  memo.lastFactors = memoed;
  return memoed;
}
