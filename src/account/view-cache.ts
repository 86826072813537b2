import { deepFreeze } from '../domain/deep-freeze.js';
import { quoteCurrency } from '../domain/instruments.js';
import { AccountSummaryView, PositionView, type Figures } from './lazy-views.js';
import { shownMarginRate } from './margin-rates.js';
import { emptySide, type AccountState, type PositionRecord, type PriceSlot } from './state.js';
import { Book, POSITIONS_MAX, type MarginRateTexts } from './view-book.js';
import {
  positionUnrealizedPL,
  unrealizedPLTextsAtHome,
  valueAccount,
  valuePosition,
  type AccountValuation,
  type PositionValuation,
  type UnrealizedPL,
} from './valuation.js';
import {
  CALCULATED_FIELDS,
  MARGIN_USED_FIGURE,
  UNREALIZED_FIGURES,
  accountSummaryView,
  positionFigure,
  positionView,
  type Json,
} from './summary-views.js';

/**
 * The AccountSummary and Position views of one account, kept while nothing they show can have
 * changed: the texts that change only with transactions per lastTransactionID (a `Book`), the
 * price-dependent figures per lastTransactionID and quotes (a `Marks`), each printed on first read.
 * A strategy that asks every tick, or a client polling GET summary between quotes, then costs a few
 * compares instead of decimal.js. Pure cache: every entry is a function of its key, so dropping it
 * changes no output (view-cache.prop.test.ts compares with the views computed afresh).
 *
 * Every input of the views is in the key: the transactions (lastTransactionID; the settings a
 * transaction does not stamp are compared too) and every quote the account holds (bid, ask and
 * whether it is known: conversion rates may come from any pair). Trailing-stop records move no
 * figure of these views.
 */

/** The price-dependent figures at one book and one set of quotes, each printed on first read. */
class Marks implements Figures {
  // Everything below is made on first use: a strategy that reads no figure makes one Marks per quote.
  private valuation: AccountValuation | undefined = undefined;
  private calculatedTexts: (string | undefined)[] | undefined = undefined;
  private positionMarks: Map<string, PositionMarks> | undefined = undefined;
  private valued: AccountState | undefined = undefined;
  summaryJson: Json | undefined = undefined;
  summaryBody: Json | undefined = undefined;
  positionJson: Map<string, Json> | undefined = undefined;

  constructor(
    readonly book: Book,
    private readonly quotes: Quotes,
    /** Per slot of `quotes`: bid, ask and 1 if known (0 if not), at this moment. */
    private readonly values: readonly number[],
  ) {}

  /** The account at the book's transaction with these quotes, as valuation reads it. */
  private account(): AccountState {
    if (this.valued === undefined) {
      const prices = new Map<string, PriceSlot>();
      const { names, slots } = this.quotes;
      const values = this.values;
      for (let i = 0; i < names.length; i += 1) {
        const slot = slots[i] as PriceSlot;
        prices.set(names[i] as string, {
          ...slot,
          bid: values[3 * i] as number,
          ask: values[3 * i + 1] as number,
          known: values[3 * i + 2] === 1,
        });
      }
      this.valued = { ...this.book.state, prices };
    }
    return this.valued;
  }

  calculated(index: number): string {
    const texts = (this.calculatedTexts ??= []);
    let text = texts[index];
    if (text === undefined) {
      const valuation = (this.valuation ??= valueAccount(this.account()));
      text = (CALCULATED_FIELDS[index] as readonly [string, (v: AccountValuation) => string])[1](valuation);
      texts[index] = text;
    }
    return text;
  }

  positionFigure(instrument: string, index: number): string {
    const all = (this.positionMarks ??= new Map());
    let marks = all.get(instrument);
    if (marks === undefined) {
      marks = {
        record: this.book.positionRecord(instrument),
        unrealized: undefined,
        atHome: undefined,
        valuation: undefined,
        texts: [],
      };
      if (all.size >= POSITIONS_MAX) all.clear();
      all.set(instrument, marks);
    }
    let text = marks.texts[index];
    if (text === undefined) {
      const record = marks.record ?? { instrument, long: emptySide(), short: emptySide() };
      if (index === MARGIN_USED_FIGURE) {
        marks.valuation ??= valuePosition(this.account(), record);
        text = positionFigure(marks.valuation, index);
      } else {
        if (marks.atHome === undefined) marks.atHome = this.unrealizedAtHome(instrument, record);
        if (marks.atHome !== null) {
          text = marks.atHome[index] as string;
        } else {
          // The P/L alone unless the whole valuation is there already: margin used is rarely read.
          marks.unrealized ??= marks.valuation ?? positionUnrealizedPL(this.account(), record);
          text = (UNREALIZED_FIGURES[index] as (v: UnrealizedPL) => string)(marks.unrealized);
        }
      }
      marks.texts[index] = text;
    }
    return text;
  }

  /**
   * A position's unrealized P/L texts on the integer grid when its quote currency is the account's
   * and its quote was known at this moment (valuation.ts unrealizedPLTextsAtHome), without the
   * account copy the Decimal route values; null for the Decimal route.
   */
  private unrealizedAtHome(instrument: string, record: PositionRecord): readonly [string, string, string] | null {
    const book = this.book;
    if (quoteCurrency(instrument) !== book.currency) return null;
    const spec = book.instruments.get(instrument);
    const i = this.quotes.names.indexOf(instrument);
    const values = this.values;
    if (spec === undefined || i < 0 || values[3 * i + 2] !== 1) return null;
    return unrealizedPLTextsAtHome(record, values[3 * i] as number, values[3 * i + 1] as number, spec.displayPrecision);
  }
}

/** One position's figures in a Marks, computed as far as read. */
interface PositionMarks {
  /** The position at the book's transaction; undefined: never traded (flat). */
  readonly record: PositionRecord | undefined;
  unrealized: UnrealizedPL | undefined;
  /** The unrealized P/L texts from the integer grid; null: the Decimal route prints them. */
  atHome: readonly [string, string, string] | null | undefined;
  valuation: PositionValuation | undefined;
  readonly texts: (string | undefined)[];
}

/** The account's price slots (live), in the order of its map, with their instruments' names. */
interface Quotes {
  readonly names: readonly string[];
  readonly slots: readonly PriceSlot[];
}

export class ViewCache implements MarginRateTexts {
  private book: Book | undefined = undefined;
  private marks: Marks | undefined = undefined;
  private quotes: Quotes = { names: [], slots: [] };
  /** The values of the quotes when the marks were taken (Marks `values`). */
  private values: readonly number[] = [];

  private shownRate: { marginRate: string | undefined; instruments: AccountState['instruments']; text: string | undefined } | undefined =
    undefined;

  /** shownMarginRate, kept while the account's rate and instruments stay (it walks every instrument). */
  shownMarginRate(state: AccountState): string | undefined {
    const kept = this.shownRate;
    if (kept !== undefined && kept.marginRate === state.marginRate && kept.instruments === state.instruments) return kept.text;
    const text = shownMarginRate(state);
    this.shownRate = { marginRate: state.marginRate, instruments: state.instruments, text };
    return text;
  }

  /** The marks of the account now; the book is the marks' book. */
  marksOf(state: AccountState): Marks {
    let book = this.book;
    if (book === undefined || !book.matches(state)) {
      book = new Book(state, book);
      this.book = book;
      this.marks = undefined;
    }
    let marks = this.marks;
    if (marks === undefined || (book.pricesMatter && !this.quotesUnchanged(state))) {
      marks = this.takeMarks(state, book);
      this.marks = marks;
    }
    return marks;
  }

  private quotesUnchanged(state: AccountState): boolean {
    const { slots } = this.quotes;
    const values = this.values;
    if (state.prices.size !== slots.length) return false;
    for (let i = 0; i < slots.length; i += 1) {
      const slot = slots[i] as PriceSlot;
      if (slot.bid !== values[3 * i] || slot.ask !== values[3 * i + 1] || (slot.known ? 1 : 0) !== values[3 * i + 2]) return false;
    }
    return true;
  }

  private takeMarks(state: AccountState, book: Book): Marks {
    let quotes = this.quotes;
    // An account's price slots are only ever added (state.ts priceSlot), each once: the same count is the same slots.
    if (state.prices.size !== quotes.slots.length) {
      const names: string[] = [];
      const slots: PriceSlot[] = [];
      for (const [name, slot] of state.prices) {
        names.push(name);
        slots.push(slot);
      }
      quotes = { names, slots };
      this.quotes = quotes;
    }
    const values: number[] = [];
    for (const slot of quotes.slots) values.push(slot.bid, slot.ask, slot.known ? 1 : 0);
    this.values = values;
    return new Marks(book, quotes, values);
  }
}

function cacheOf(state: AccountState): ViewCache {
  const memo = state.memo;
  let cache = memo.views as ViewCache | undefined;
  if (cache === undefined) {
    cache = new ViewCache();
    memo.views = cache;
  }
  return cache;
}

/**
 * The AccountSummary now, its calculated fields printed on first read (lazy-views.ts). A new
 * object on every call, as the plain view is (a caller may change it); the texts are shared.
 */
export function summaryViewOf(state: AccountState): AccountSummaryView {
  const cache = cacheOf(state);
  const marks = cache.marksOf(state);
  return new AccountSummaryView(marks.book.summary(cache), marks);
}

/** The Position of an instrument now (flat when never traded), its figures printed on first read; new as summaryViewOf's. */
export function positionViewOf(state: AccountState, instrument: string): PositionView {
  const marks = cacheOf(state).marksOf(state);
  return new PositionView(marks.book.position(instrument).texts, marks);
}

/**
 * The plain AccountSummary now (accountSummaryView), one frozen object per lastTransactionID and
 * quotes: GET summary between two quotes prints it once.
 */
export function cachedSummaryJson(state: AccountState): Json {
  const marks = cacheOf(state).marksOf(state);
  return (marks.summaryJson ??= deepFreeze(accountSummaryView(state)));
}

/**
 * GET summary's whole body (the AccountSummary and lastTransactionID), frozen and kept as
 * cachedSummaryJson is: a client polling between two quotes is answered with one text.
 */
export function cachedSummaryBody(state: AccountState): Json {
  const marks = cacheOf(state).marksOf(state);
  return (marks.summaryBody ??= Object.freeze({ account: cachedSummaryJson(state), lastTransactionID: String(state.lastTransactionID) }));
}

/** The plain Position of a position of the account now (positionView), frozen and kept as cachedSummaryJson is. */
export function cachedPositionJson(state: AccountState, position: PositionRecord): Json {
  const marks = cacheOf(state).marksOf(state);
  const all = (marks.positionJson ??= new Map());
  let json = all.get(position.instrument);
  if (json === undefined) {
    json = deepFreeze(positionView(state, position));
    if (all.size >= POSITIONS_MAX) all.clear();
    all.set(position.instrument, json);
  }
  return json;
}
