import { DEFAULT_HOME_CONVERSION_FEE } from '../domain/conversion.js';
import { Decimal, ZERO } from '../domain/decimal.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import type { QuoteBook } from '../domain/liquidity.js';
import { MarketCalendar } from '../domain/market-hours.js';
import type { Micros } from '../domain/time.js';
import type { ClientExtensions, OrderTransaction, OrderType, TradeReduce } from '../domain/transactions.js';
import type { Direction, PriceSource } from '../matching/fill-rules.js';
import type { TriggerEntry } from '../matching/trigger-heap.js';
import { TriggerIndex, type TrailingEntry } from '../matching/trigger-index.js';
import { DeadlineQueue } from './deadlines.js';
import { IdTable } from './id-table.js';
import { AccountMemo } from './memo.js';
import type { OrderState } from '../orders/lifecycle.js';

/** The latest quote of an instrument as this account saw it, on the integer price grid. */
export interface PriceSlot {
  bid: number;
  ask: number;
  closeoutBid: number;
  closeoutAsk: number;
  time: Micros;
  /** Set once a quote has arrived; a slot exists before that for index bookkeeping. */
  known: boolean;
  /** 10^displayPrecision of the instrument, cached for the quote path. */
  scale: number;
  /** The last quote's liquidity levels on the grid; undefined when it had none (unlimited liquidity). */
  book: QuoteBook | undefined;
  /** Whether the market was open at the last quote's time (market-hours.ts). */
  tradeable: boolean;
  /**
   * Until when the last quote is a live price: for a tradeable quote the end of its session, for a
   * quote in closed hours -Infinity. So `now < sessionUntil` says the quote is still a live price,
   * and a quote of an open session costs one compare on the quote path.
   */
  sessionUntil: Micros;
  /** The instrument's trading calendar, with this slot's own cache. */
  readonly calendar: MarketCalendar;
  /**
   * The band of bid + ask inside which this price cannot move the account across a margin level
   * (account/margin-watch.ts); infinite when the instrument does not matter to the margin, closed
   * (low above high) while the levels are stale, so that the next quote checks them.
   */
  marginLow: number;
  marginHigh: number;
}

export interface OrderRecord {
  readonly id: number;
  readonly type: OrderType;
  state: OrderState;
  /** The creation transaction: the order's request fields as v20 echoes them. */
  readonly create: OrderTransaction;
  readonly instrument: string;
  readonly isBuy: boolean;
  /** For dependent orders (TP/SL/TSL) the trade they close. */
  readonly tradeId: number | undefined;
  clientExtensions: ClientExtensions | undefined;
  tradeClientExtensions: ClientExtensions | undefined;
  readonly gtd: Micros | undefined;
  /** Where the order rests in the trigger index, if it does. */
  trigger: { source: PriceSource; direction: Direction; entry: TriggerEntry } | undefined;
  trailing: TrailingEntry | undefined;
  initialMarketPrice: string | undefined;
  fillingTransactionID?: string;
  filledTime?: string;
  tradeOpenedID?: string;
  tradeReducedID?: string;
  tradeClosedIDs?: string[];
  cancellingTransactionID?: string;
  cancelledTime?: string;
  replacedByOrderID?: string;
}

export interface TradeRecord {
  readonly id: number;
  readonly instrument: string;
  readonly price: string;
  /** `price` as a Decimal, made on first use (tradePriceDecimal): the integer routes of fills and views never ask. */
  priceDecimal: Decimal | undefined;
  readonly openTime: string;
  readonly initialUnits: Decimal;
  readonly initialMarginRequired: string;
  currentUnits: Decimal;
  /** currentUnits as a safe whole number; NaN when fractional or too large (fills then use decimal.js). */
  unitsInt: number;
  realizedPL: Decimal;
  financing: Decimal;
  state: 'OPEN' | 'CLOSED';
  closeTime: string | undefined;
  closingTransactionIDs: string[];
  /** The fills' reductions of this trade, oldest first: units and price for averageClosePrice. */
  readonly reductions: TradeReduce[];
  clientExtensions: ClientExtensions | undefined;
  takeProfitOrderID: number | undefined;
  stopLossOrderID: number | undefined;
  trailingStopLossOrderID: number | undefined;
}

/** A trade's open price as a Decimal (TradeRecord.priceDecimal, made from its text on first read). */
export function tradePriceDecimal(trade: TradeRecord): Decimal {
  return (trade.priceDecimal ??= new Decimal(trade.price));
}

/**
 * A side's sums have two forms. While every trade opened and reduced on it counted whole units
 * and the products fit, unitsInt and costInt hold them exactly and the Decimals are made from
 * them when first read after a change (sideUnits, sideCost): a fill adds two integers instead of
 * doing three Decimal operations, and what reads the sums as Decimals (valuation, views, closes)
 * runs far less often. Once a change does not fit (fractional units, another price precision, a
 * sum past 2^53), the ints are NaN and the Decimals are the sums until the side is empty again.
 */
export interface PositionSideRecord {
  /** Σ currentUnits of the side's open trades (signed); undefined until read after a change (sideUnits). */
  units: Decimal | undefined;
  /** Σ currentUnits × open price of the side's open trades, in quote currency (signed like units); see sideCost. */
  cost: Decimal | undefined;
  /** units as a safe integer, NaN when the Decimal is the sum. */
  unitsInt: number;
  /** cost in units of 10^-costScale as a safe integer, NaN when the Decimal is the sum. */
  costInt: number;
  /** The decimals of costInt: those of the side's first open price (-1 while it has none). */
  costScale: number;
  /** Float shadows of units and cost: only for the quick margin pre-check, never for money. */
  unitsFloat: number;
  costFloat: number;
  /** Realized P/L (realized-pl.ts: plOf, plText). */
  pl: Decimal | undefined;
  plInt: number;
  financing: Decimal;
  /** Open trades, oldest first: the FIFO reduction order. */
  tradeIds: number[];
}

export interface PositionRecord {
  readonly instrument: string;
  long: PositionSideRecord;
  short: PositionSideRecord;
}

export interface AccountConfig {
  readonly id: string;
  readonly currency: string;
  readonly alias?: string;
  readonly hedgingEnabled?: boolean;
  readonly marginRate?: string;
  readonly balance?: string;
  /** The home-currency conversion fee, e.g. "0.005" (domain/conversion.ts; default 0.5 %). */
  readonly homeConversionFee?: string;
  /** Whether a margin closeout closes the account's positions (default true; account/margin-call.ts). */
  readonly marginCloseout?: boolean;
  /** The division whose margin rates the account uses (domain/margin-presets.ts); default: the catalogue's. */
  readonly marginPreset?: string;
  /**
   * The MT4 account the account is tied to (AccountProperties.mt4AccountID, oanda-v20-openapi.json):
   * set, the account belongs to a third-party trading terminal and refuses client extensions
   * (account/third-party-terminal.ts). Absent for an ordinary account, as in v20.
   */
  readonly mt4AccountID?: number;
}

/** The margin call an account is in: from MARGIN_CALL_ENTER until MARGIN_CALL_EXIT. */
export interface MarginCallState {
  readonly enterTime: string;
  extensionCount: number;
  lastExtensionTime: string | undefined;
}

export interface AccountState {
  readonly id: string;
  readonly userID: number;
  currency: string;
  alias: string;
  hedgingEnabled: boolean;
  /** Client override of the margin rate; undefined until configured. */
  marginRate: string | undefined;
  /** The home-currency conversion fee f (account/home-currency.ts): the account's setting, not journaled. */
  homeConversionFee: string;
  /** The margin call the account is in, if it is in one. */
  marginCall: MarginCallState | undefined;
  /** Whether a margin closeout closes positions: the account's setting (like hedgingEnabled, not journaled). */
  marginCloseoutEnabled: boolean;
  /** The MT4 account of an account tied to a third-party terminal (AccountConfig.mt4AccountID): a setting, not journaled. */
  mt4AccountID: number | undefined;
  /** A margin closeout failed to close everything: no new attempt until a fill, transfer, configuration or financing. */
  marginCloseoutBlocked: boolean;
  /** Set by evolve on every transaction that may move them (markMarginStale, which also closes every band): the margin levels are checked again at the next quote. */
  marginStale: boolean;
  createdTime: string;
  /**
   * The balance as a Decimal, parsed from balanceText when first read after a change (balanceOf):
   * most fills change the balance, and what reads it as a Decimal (valuation, transfers, financing)
   * runs far less often.
   */
  balance: Decimal | undefined;
  /** Float shadow of the balance for the quick margin pre-check. */
  balanceFloat: number;
  /** The balance as the last transaction printed it, so an unchanged balance is not reformatted. */
  balanceText: string;
  /** Realized P/L (realized-pl.ts: plOf, plText). */
  pl: Decimal | undefined;
  plInt: number;
  financing: Decimal;
  commission: Decimal;
  lastTransactionID: number;
  orders: IdTable<OrderRecord>;
  pendingCount: number;
  /** Pending orders' IDs, oldest first, with some that have since ended (account/live-records.ts). */
  pendingOrderIds: number[];
  trades: IdTable<TradeRecord>;
  openTradeCount: number;
  /** Open trades' IDs, oldest first, with some that have since closed (account/live-records.ts). */
  openTradeIds: number[];
  positions: Map<string, PositionRecord>;
  /** Client order IDs of pending orders, and client trade IDs of open trades. */
  /**
   * Client order ID -> the order that carries it, in any state: an OrderSpecifier `@id` finds an
   * order after it filled or was cancelled, as the numeric ID does, and a client ID is never given
   * to a second order of the account (CLIENT_ORDER_ID_ALREADY_EXISTS). OANDA's OrderSpecifier is
   * "the Order's client-provided ClientID prefixed by @", with no state named (oanda-v20-openapi.json);
   * an ID changed by a client-extensions modify is released. Rebuilt from the journal by evolve.
   */
  clientOrderIds: Map<string, number>;
  /** Client trade ID -> the trade, open or closed (as clientOrderIds, for TradeSpecifier and CLIENT_TRADE_ID_ALREADY_EXISTS). */
  clientTradeIds: Map<string, number>;
  index: TriggerIndex;
  /** GTD/GFD expiries of pending orders. */
  deadlines: DeadlineQueue;
  prices: Map<string, PriceSlot>;
  instruments: ReadonlyMap<string, InstrumentSpec>;
  /** Values the account recomputes on every fill, kept with it (never in a module). */
  readonly memo: AccountMemo;
}

const ACCOUNT_ID_RE = /^(\d{3})-(\d{3})-(\d{1,12})-(\d{3})$/;

export function isAccountId(value: string): boolean {
  return ACCOUNT_ID_RE.test(value);
}

/** AccountID is `{siteID}-{divisionID}-{userID}-{accountNumber}`; userID is the third part. */
export function parseAccountId(id: string): { siteID: number; divisionID: number; userID: number; accountNumber: number } {
  const m = ACCOUNT_ID_RE.exec(id);
  if (!m) throw new Error(`account ID must look like 101-004-1435156-001: ${id}`);
  return { siteID: Number(m[1]), divisionID: Number(m[2]), userID: Number(m[3]), accountNumber: Number(m[4]) };
}

export function emptyAccountState(id: string, instruments: ReadonlyMap<string, InstrumentSpec>): AccountState {
  return {
    id,
    userID: parseAccountId(id).userID,
    currency: 'USD',
    alias: '',
    hedgingEnabled: false,
    marginRate: undefined,
    homeConversionFee: DEFAULT_HOME_CONVERSION_FEE,
    marginCall: undefined,
    marginCloseoutEnabled: true,
    mt4AccountID: undefined,
    marginCloseoutBlocked: false,
    marginStale: true,
    createdTime: '',
    balance: ZERO,
    balanceFloat: 0,
    balanceText: '0.0000',
    pl: ZERO,
    plInt: 0,
    financing: ZERO,
    commission: ZERO,
    lastTransactionID: 0,
    orders: new IdTable(),
    pendingCount: 0,
    pendingOrderIds: [],
    trades: new IdTable(),
    openTradeCount: 0,
    openTradeIds: [],
    positions: new Map(),
    clientOrderIds: new Map(),
    clientTradeIds: new Map(),
    index: new TriggerIndex(),
    deadlines: new DeadlineQueue(),
    prices: new Map(),
    instruments,
    memo: new AccountMemo(),
  };
}

/** The account's balance as a Decimal (AccountState.balance, parsed on first read). */
export function balanceOf(state: AccountState): Decimal {
  return (state.balance ??= new Decimal(state.balanceText));
}

export function emptySide(): PositionSideRecord {
  return {
    units: ZERO,
    cost: ZERO,
    unitsInt: 0,
    costInt: 0,
    costScale: -1,
    unitsFloat: 0,
    costFloat: 0,
    pl: ZERO,
    plInt: 0,
    financing: ZERO,
    tradeIds: [],
  };
}

export function positionOf(state: AccountState, instrument: string): PositionRecord {
  let position = state.positions.get(instrument);
  if (position === undefined) {
    position = { instrument, long: emptySide(), short: emptySide() };
    state.positions.set(instrument, position);
  }
  return position;
}

export function priceSlot(state: AccountState, instrument: string): PriceSlot {
  let slot = state.prices.get(instrument);
  if (slot === undefined) {
    const spec = instrumentSpec(state, instrument);
    slot = {
      bid: 0,
      ask: 0,
      closeoutBid: 0,
      closeoutAsk: 0,
      time: 0,
      known: false,
      book: undefined,
      scale: 10 ** spec.displayPrecision,
      tradeable: false,
      sessionUntil: Number.NEGATIVE_INFINITY,
      calendar: new MarketCalendar(spec.marketHours),
      // Closed: the first quote checks the margin levels (a first price may value a position).
      marginLow: Number.POSITIVE_INFINITY,
      marginHigh: Number.NEGATIVE_INFINITY,
    };
    state.prices.set(instrument, slot);
  }
  return slot;
}

/** Records the market state at a quote's time `t`; called when `t` reaches `slot.sessionUntil` (every quote in closed hours). */
export function refreshSession(slot: PriceSlot, t: Micros): void {
  slot.tradeable = slot.calendar.openAt(t);
  slot.sessionUntil = slot.calendar.tradeableUntil(t);
}

/**
 * Whether an order can fill at `now` on the slot's quote: there is one, it was quoted while the
 * market was open, and the market has not closed since (a Friday quote is no price on Sunday).
 */
export function isTradeableAt(slot: PriceSlot | undefined, now: Micros): boolean {
  return slot !== undefined && slot.known && slot.tradeable && now < slot.sessionUntil;
}

export function instrumentSpec(state: AccountState, instrument: string): InstrumentSpec {
  const spec = state.instruments.get(instrument);
  if (spec === undefined) throw new Error(`unknown instrument reached the account core: ${instrument}`);
  return spec;
}
