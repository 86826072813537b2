/**
 * The report of a served (paper) account, from its journal alone: the same BacktestResult a
 * backtest gives, so the same files (transactions, trades, equity, report.json, report.html).
 *
 * A journal holds transactions, not quotes. The account is rebuilt entry by entry (evolve, as a
 * restart does), and marked to market at the prices the journal itself records: each fill's
 * `fullPrice` (its bid, ask and closeout prices) becomes the instrument's latest price at the
 * fill's time. So the equity curve has a point at every transaction, valued at the last fill
 * price of each instrument, and is flat between transactions; a backtest's curve also moves with
 * the quotes in between. Positions in an instrument never filled since are valued at their last
 * fill price too.
 */
import { createHash } from 'node:crypto';
import { Account } from '../account/account.js';
import { evolve } from '../account/evolve.js';
import { priceSlot, type AccountState } from '../account/state.js';
import { accountSummaryView } from '../account/views.js';
import { Decimal, ZERO } from '../domain/decimal.js';
import { buildCatalogue, type InstrumentSpec } from '../domain/instruments.js';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import { parsePriceInt } from '../domain/price.js';
import { parseDateTime, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { unsealLine } from '../journal/batch-seal.js';
import { serializeTransaction } from '../journal/journal.js';
import { readLines } from '../engine/feeds/lines.js';
import { EquityArrays, EquityRecorder, POINT_END, POINT_FILL, POINT_INTERVAL, POINT_START } from './equity.js';
import { computeMetrics } from './report.js';
import type { BacktestResult } from './runner.js';
import { tradeRows } from './trades.js';
import type { V20AccountSummary } from './v20.js';

/** A journal line that is not a journal entry, or a journal that is not an account's. */
export class JournalReportError extends Error {}

/** The entries of a journal's NDJSON text; an unreadable line is an error naming it. */
export function parseJournalText(text: string, source: string): JournalEntry[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return parseJournalLines(lines, source);
}

/**
 * The entries of a journal file, read a block of lines at a time: a served account's journal may
 * be larger than the longest string V8 can hold (about 512 MB), so it is never read as one text.
 */
export function readJournalFile(file: string, chunkSize?: number): JournalEntry[] {
  return parseJournalLines(readLines(file, chunkSize), file);
}

/** The entries of a journal's lines (without their newlines); an unreadable line is an error naming it. */
export function parseJournalLines(lines: Iterable<string>, source: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  // One line of look-ahead: a line that does not parse is reported as cut when it is the last.
  const iterator = lines[Symbol.iterator]();
  let next = iterator.next();
  let number = 0;
  while (next.done !== true) {
    const line = next.value;
    next = iterator.next();
    number += 1;
    let entry: unknown;
    try {
      // A data-dir journal seals each batch's last line (journal/batch-seal.ts): read it as exported.
      entry = JSON.parse(unsealLine(line).text);
    } catch {
      const torn = next.done === true ? ' (the last line is cut: the file may still be written, or was torn)' : '';
      throw new JournalReportError(`${source}:${number}: not a JSON line${torn}`);
    }
    if (typeof entry !== 'object' || entry === null || typeof (entry as { type?: unknown }).type !== 'string')
      throw new JournalReportError(`${source}:${number}: not a journal entry (no "type")`);
    entries.push(entry as JournalEntry);
  }
  return entries;
}

/** Sets the instrument's latest price from a fill's fullPrice; a price that does not parse leaves it. */
function markFill(state: AccountState, tx: Transaction, time: Micros): void {
  if (tx.type !== 'ORDER_FILL') return;
  const spec = state.instruments.get(tx.instrument);
  const bid = tx.fullPrice.bids[0]?.price ?? tx.fullPrice.closeoutBid;
  const ask = tx.fullPrice.asks[0]?.price ?? tx.fullPrice.closeoutAsk;
  if (spec === undefined) return;
  const p = spec.displayPrecision;
  const [b, a, cb, ca] = [bid, ask, tx.fullPrice.closeoutBid, tx.fullPrice.closeoutAsk].map((t) => parsePriceInt(t, p));
  if (b === null || a === null || cb === null || ca === null) return;
  const slot = priceSlot(state, tx.instrument);
  Object.assign(slot, { bid: b, ask: a, closeoutBid: cb, closeoutAsk: ca, time, known: true });
}

export interface JournalReportOptions {
  /** Instrument overrides the server ran with (serve config `instruments`). */
  readonly instruments?: ReadonlyMap<string, InstrumentSpec>;
  /** Where the journal came from, for the report's sources. */
  readonly source?: string;
}

/** What replaying a journal leaves to report from. */
interface Replayed {
  readonly lines: string[];
  readonly perInstrument: Map<string, number>;
  initialBalance: string | undefined;
  first: Micros | undefined;
  last: Micros;
  spreadCost: Decimal;
}

/** Applies the entries to the account one by one, marking equity after each transaction. */
function replay(entries: readonly JournalEntry[], account: Account, recorder: EquityRecorder): Replayed {
  const state = account.state;
  const r: Replayed = { lines: [], perInstrument: new Map(), initialBalance: undefined, first: undefined, last: 0, spreadCost: ZERO };
  for (const entry of entries) {
    const time = parseDateTime(entry.time);
    if (time === null) throw new JournalReportError(`entry ${JSON.stringify(entry).slice(0, 80)} has no readable time`);
    if (time < r.last) throw new JournalReportError(`the journal goes back in time at ${entry.time}`);
    r.last = time;
    if (!isTransaction(entry)) {
      evolve(state, entry);
      continue;
    }
    if (entry.accountID !== state.id)
      throw new JournalReportError(`transaction ${entry.id} is of account ${entry.accountID}, not ${state.id}`);
    markFill(state, entry, time);
    evolve(state, entry);
    account.log.push(entry);
    r.lines.push(serializeTransaction(entry));
    if (entry.type === 'ORDER_FILL') {
      r.spreadCost = r.spreadCost.plus(entry.halfSpreadCost);
      r.perInstrument.set(entry.instrument, (r.perInstrument.get(entry.instrument) ?? 0) + 1);
    }
    // The curve starts once the opening deposit is in: returns are measured from it.
    const opening = r.initialBalance === undefined && entry.type === 'TRANSFER_FUNDS';
    if (opening) {
      r.initialBalance = entry.accountBalance;
      r.first = time;
    }
    if (r.initialBalance === undefined) continue;
    recorder.invalidate();
    recorder.record(time, opening ? POINT_START : entry.type === 'ORDER_FILL' ? POINT_FILL : POINT_INTERVAL);
  }
  return r;
}

/** Rebuilds the account of `entries` and reports it as a backtest result. */
export function reportFromJournal(entries: readonly JournalEntry[], options: JournalReportOptions = {}): BacktestResult {
  const create = entries[0];
  if (create === undefined || !isTransaction(create) || create.type !== 'CREATE')
    throw new JournalReportError("the journal does not start with the account's CREATE transaction");
  const accountID = create.accountID;
  const currency = create.homeCurrency;
  const account = Account.replay({ id: accountID, currency }, options.instruments ?? buildCatalogue(), []);
  const state = account.state;
  const arrays = new EquityArrays();
  const recorder = new EquityRecorder(state, arrays);
  const { lines, perInstrument, initialBalance, first, last, spreadCost } = replay(entries, account, recorder);
  if (initialBalance === undefined || first === undefined)
    throw new JournalReportError('the journal has no opening deposit (TRANSFER_FUNDS): nothing to measure returns from');
  recorder.record(last, POINT_END);
  // The rebuilt account keeps every transaction (no window): this copies the references only.
  const log = account.log.slice();
  const base = {
    strategy: `served account ${accountID}`,
    params: {},
    accountID,
    currency,
    initialBalance,
    // What the journal records: a margin rate set through CLIENT_CONFIGURE (hedging is not in it).
    accountSettings: state.marginRate === undefined ? {} : { marginRate: state.marginRate },
    equityIntervalMicros: 0,
    sources: [],
    strategySource: undefined,
    configDigest: createHash('sha256').update(lines.join('\n')).digest('hex'),
    ticks: 0,
    firstTickTime: first,
    lastTickTime: last,
    instruments: [...perInstrument].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    transactions: log,
    transactionLines: lines,
    equity: arrays.curve,
    prices: arrays.prices,
    trades: tradeRows(state, log),
    summary: accountSummaryView(state) as unknown as V20AccountSummary,
    strategyLog: [],
    ...(options.source === undefined ? {} : { journal: options.source }),
  };
  const costs = { spreadCost: spreadCost.toNumber(), financing: new Decimal(state.financing).toNumber() };
  return { ...base, metrics: computeMetrics({ ...base, ...costs, transactions: log }) };
}
