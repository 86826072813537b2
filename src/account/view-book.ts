/**
 * What the views of an account show that changes only with transactions, at one
 * lastTransactionID: account/view-cache.ts keeps the latest book of each account and prints its
 * views from it, and a view taken at this transaction keeps its book.
 */
import { emptySide, type AccountState, type PositionRecord } from './state.js';
import { displayPrecision, isOpenPosition, positionTexts, summaryTexts, type PrintedPosition, type SummaryTexts } from './summary-views.js';

/** Where a book gets the shown margin rate (the ViewCache keeps it per rate and instruments). */
export interface MarginRateTexts {
  shownMarginRate(state: AccountState): string | undefined;
}

/** Instruments whose position texts a Book keeps (a strategy may ask for any name; each is flat). */
export const POSITIONS_MAX = 1024;

/** A position as it is now: evolve replaces a side's Decimals and pushes to and splices its trade IDs in place. */
function copyPosition(position: PositionRecord): PositionRecord {
  const { long, short } = position;
  return {
    instrument: position.instrument,
    long: { ...long, tradeIds: long.tradeIds.slice() },
    short: { ...short, tradeIds: short.tradeIds.slice() },
  };
}

/** What the views show that changes only with transactions, at one lastTransactionID. */
export class Book {
  readonly lastTransactionID: number;
  readonly currency: string;
  private readonly alias: string;
  private readonly hedgingEnabled: boolean;
  private readonly homeConversionFee: string;
  private readonly marginRate: string | undefined;
  readonly instruments: AccountState['instruments'];
  private readonly balance: AccountState['balance'];
  private readonly balanceFloat: number;
  private readonly balanceText: string;
  /** Every position of the account at this transaction, copied. */
  private readonly copies: Map<string, PositionRecord>;
  private valuationState: AccountState | undefined = undefined;
  /** Whether any position is open: otherwise no figure depends on a quote. */
  readonly pricesMatter: boolean;
  private summaryTexts: SummaryTexts | undefined = undefined;
  private readonly positions = new Map<string, PrintedPosition>();
  /** Positions printed in an earlier book, whose unchanged texts this one takes over (a map, never a book: no chain of books). */
  private readonly earlier: ReadonlyMap<string, PrintedPosition> | undefined;
  private readonly live: AccountState;

  constructor(live: AccountState, previous: Book | undefined) {
    this.live = live;
    this.earlier = previous === undefined ? undefined : previous.positions.size !== 0 ? previous.positions : previous.earlier;
    this.lastTransactionID = live.lastTransactionID;
    // What a view shows that no transaction stamps: the account's settings (account.ts initialState).
    this.currency = live.currency;
    this.alias = live.alias;
    this.hedgingEnabled = live.hedgingEnabled;
    this.homeConversionFee = live.homeConversionFee;
    this.marginRate = live.marginRate;
    this.instruments = live.instruments;
    this.balance = live.balance;
    this.balanceFloat = live.balanceFloat;
    this.balanceText = live.balanceText;
    const positions = new Map<string, PositionRecord>();
    let open = false;
    for (const [instrument, position] of live.positions) {
      positions.set(instrument, copyPosition(position));
      if (isOpenPosition(position)) open = true;
    }
    this.pricesMatter = open;
    this.copies = positions;
  }

  /**
   * The account as valuation reads it at this transaction (`prices` is replaced by each Marks),
   * made on first use: most books are only printed. Every field valuation reads (valuation.ts,
   * home-currency.ts, margin-rates.ts: the balance, the positions and the settings above) is the
   * book's own; the rest comes from the account when it is made, and no valuation reads it.
   */
  get state(): AccountState {
    return (this.valuationState ??= {
      ...this.live,
      balance: this.balance,
      balanceFloat: this.balanceFloat,
      balanceText: this.balanceText,
      positions: this.copies,
      currency: this.currency,
      alias: this.alias,
      hedgingEnabled: this.hedgingEnabled,
      homeConversionFee: this.homeConversionFee,
      marginRate: this.marginRate,
      instruments: this.instruments,
    });
  }

  /** The position of `instrument` at this transaction; undefined: never traded. */
  positionRecord(instrument: string): PositionRecord | undefined {
    return this.copies.get(instrument);
  }

  matches(live: AccountState): boolean {
    return (
      live === this.live &&
      live.lastTransactionID === this.lastTransactionID &&
      live.currency === this.currency &&
      live.alias === this.alias &&
      live.hedgingEnabled === this.hedgingEnabled &&
      live.homeConversionFee === this.homeConversionFee &&
      live.marginRate === this.marginRate &&
      live.instruments === this.instruments
    );
  }

  /** Called only while the book matches the live account, so the texts are printed from it. */
  summary(rates: MarginRateTexts): SummaryTexts {
    return (this.summaryTexts ??= summaryTexts(this.live, rates.shownMarginRate(this.live)));
  }

  /** As summary(): only while the book matches. */
  position(instrument: string): PrintedPosition {
    let entry = this.positions.get(instrument);
    if (entry === undefined) {
      const record = this.copies.get(instrument) ?? { instrument, long: emptySide(), short: emptySide() };
      const live = this.live;
      entry = {
        texts: positionTexts(live, record, this.earlier?.get(instrument)),
        from: record,
        precision: displayPrecision(live, instrument),
      };
      if (this.positions.size >= POSITIONS_MAX) this.positions.clear();
      this.positions.set(instrument, entry);
    }
    return entry;
  }
}
