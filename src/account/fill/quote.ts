import { priceBuckets, SHOWN_LIQUIDITY, type QuoteBook } from '../../domain/liquidity.js';
import { formatPriceInt } from '../../domain/price.js';
import { formatRfc3339 } from '../../domain/time.js';
import type { FillPrice } from '../../domain/transactions.js';
import type { AccountMemo } from '../memo.js';
import type { PriceSlot } from '../state.js';

/**
 * The quote a fill took, as v20 prints it. Every fill of one quote prints the same object, so
 * consecutive fills at an unchanged quote share it (transactions are never changed once written).
 */
export function fillPrice(memo: AccountMemo, slot: PriceSlot, precision: number): FillPrice {
  const book = slot.book;
  if (book !== undefined) return (book.fillPrice ??= bookPrice(book, slot, precision));
  const last = memo.lastQuote;
  if (
    last !== undefined &&
    last.slot === slot &&
    last.time === slot.time &&
    last.bid === slot.bid &&
    last.ask === slot.ask &&
    last.closeoutBid === slot.closeoutBid &&
    last.closeoutAsk === slot.closeoutAsk &&
    last.precision === precision
  ) {
    return last.price;
  }
  const bid = formatPriceInt(slot.bid, precision);
  const ask = formatPriceInt(slot.ask, precision);
  // A quote without closeout prices of its own closes out at its bid and ask: one text each.
  const price: FillPrice = {
    closeoutBid: slot.closeoutBid === slot.bid ? bid : formatPriceInt(slot.closeoutBid, precision),
    closeoutAsk: slot.closeoutAsk === slot.ask ? ask : formatPriceInt(slot.closeoutAsk, precision),
    timestamp: memo.timeText(slot.time),
    bids: [{ price: bid, liquidity: SHOWN_LIQUIDITY }],
    asks: [{ price: ask, liquidity: SHOWN_LIQUIDITY }],
  };
  memo.lastQuote = {
    slot,
    time: slot.time,
    bid: slot.bid,
    ask: slot.ask,
    closeoutBid: slot.closeoutBid,
    closeoutAsk: slot.closeoutAsk,
    precision,
    price,
  };
  return price;
}

/** The fullPrice of a quote with levels: every bucket of both sides, best first (v20 ClientPrice.bids/asks). */
function bookPrice(book: QuoteBook, slot: PriceSlot, precision: number): FillPrice {
  const format = (priceInt: number): string => formatPriceInt(priceInt, precision);
  const price: FillPrice = {
    closeoutBid: format(slot.closeoutBid),
    closeoutAsk: format(slot.closeoutAsk),
    timestamp: formatRfc3339(slot.time),
    bids: priceBuckets(book.bids, format(slot.bid), format),
    asks: priceBuckets(book.asks, format(slot.ask), format),
  };
  return price;
}
