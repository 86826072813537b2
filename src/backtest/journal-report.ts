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
import { Account, type RecordPaging } from '../account/account.js';
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
import { EquityArrays, EquityRecorder, POINT_END, POINT_FILL, POINT_INTERVAL, POINT_START, type EquitySink } from './equity.js';
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
  return [...journalEntries(lines, source)];
}

/** The entries of a journal's lines, parsed one at a time as they are read. */
export function* journalEntries(lines: Iterable<string>, source: string): Generator<JournalEntry> {
  // One line of look-ahead: a line that does not parse is reported as cut when it is the last.
  const iterator = lines[Symbol.iterator]();
  // Stopped early (an error, or a reader that wanted the first entry only): the file is closed.
  try {
    yield* entriesOf(iterator, source);
  } finally {
    iterator.return?.();
  }
}

function* entriesOf(iterator: Iterator<string>, source: string): Generator<JournalEntry> {
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
    yield entry as JournalEntry;
  }
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

/** Where a replay hands each transaction, with its line as transactions.ndjson prints it. */
export type ReplaySink = (tx: Transaction, line: string) => void;

/** What replaying a journal leaves to report from. */
export interface Replayed {
  readonly account: Account;
  readonly perInstrument: Map<string, number>;
  readonly initialBalance: string;
  readonly first: Micros;
  readonly last: Micros;
  readonly spreadCost: Decimal;
  /** SHA-256 of the transactions' lines joined by newlines (the report's configDigest). */
  readonly digest: string;
}

/**
 * Rebuilds the account of a journal's entries (read once, in order), marking equity after each
 * transaction and handing each to `sink`. With `paging`, ended orders and closed trades beyond its
 * window page out as in a backtest, between entries: the account's memory is then bounded by its
 * open positions, not by the journal's length.
 */
export function replayJournal(
  entries: Iterable<JournalEntry>,
  options: JournalReportOptions,
  equity: EquitySink,
  sink: ReplaySink,
  paging?: RecordPaging,
): Replayed {
  const iterator = entries[Symbol.iterator]();
  try {
    return replayEntries(iterator, options, equity, sink, paging);
  } finally {
    iterator.return?.();
  }
}

function replayEntries(
  iterator: Iterator<JournalEntry>,
  options: JournalReportOptions,
  equity: EquitySink,
  sink: ReplaySink,
  paging: RecordPaging | undefined,
): Replayed {
  const create = iterator.next();
  if (create.done === true || !isTransaction(create.value) || create.value.type !== 'CREATE')
    throw new JournalReportError("the journal does not start with the account's CREATE transaction");
  const { accountID, homeCurrency: currency } = create.value;
  const account = Account.replay({ id: accountID, currency }, options.instruments ?? buildCatalogue(), [], undefined, paging);
  const state = account.state;
  const recorder = new EquityRecorder(state, equity);
  const hash = createHash('sha256');
  const perInstrument = new Map<string, number>();
  let initialBalance: string | undefined;
  let first: Micros | undefined;
  let last: Micros = 0;
  let spreadCost = ZERO;
  let lines = 0;
  for (let step: IteratorResult<JournalEntry> = create; step.done !== true; step = iterator.next()) {
    const entry = step.value;
    const time = parseDateTime(entry.time);
    if (time === null) throw new JournalReportError(`entry ${JSON.stringify(entry).slice(0, 80)} has no readable time`);
    if (time < last) throw new JournalReportError(`the journal goes back in time at ${entry.time}`);
    last = time;
    if (!isTransaction(entry)) {
      evolve(state, entry);
      continue;
    }
    if (entry.accountID !== state.id)
      throw new JournalReportError(`transaction ${entry.id} is of account ${entry.accountID}, not ${state.id}`);
    markFill(state, entry, time);
    evolve(state, entry);
    const line = serializeTransaction(entry);
    hash.update(lines === 0 ? line : `\n${line}`);
    lines += 1;
    sink(entry, line);
    if (entry.type === 'ORDER_FILL') {
      spreadCost = spreadCost.plus(entry.halfSpreadCost);
      perInstrument.set(entry.instrument, (perInstrument.get(entry.instrument) ?? 0) + 1);
    }
    // The curve starts once the opening deposit is in: returns are measured from it.
    const opening = initialBalance === undefined && entry.type === 'TRANSFER_FUNDS';
    if (opening) {
      initialBalance = entry.accountBalance;
      first = time;
    }
    if (initialBalance !== undefined) {
      recorder.invalidate();
      recorder.record(time, opening ? POINT_START : entry.type === 'ORDER_FILL' ? POINT_FILL : POINT_INTERVAL);
    }
    // No decision holds a record between entries: records may page out here.
    state.orders.trim();
    state.trades.trim();
  }
  if (initialBalance === undefined || first === undefined)
    throw new JournalReportError('the journal has no opening deposit (TRANSFER_FUNDS): nothing to measure returns from');
  recorder.record(last, POINT_END);
  return { account, perInstrument, initialBalance, first, last, spreadCost, digest: hash.digest('hex') };
}

/** The parts of a journal's report that do not depend on where its transactions and curve went. */
export function journalSummaryParts(r: Replayed, options: JournalReportOptions) {
  const state = r.account.state;
  return {
    strategy: `served account ${state.id}`,
    params: {},
    accountID: state.id,
    currency: state.currency,
    initialBalance: r.initialBalance,
    // What the journal records: a margin rate set through CLIENT_CONFIGURE (hedging is not in it).
    accountSettings: state.marginRate === undefined ? {} : { marginRate: state.marginRate },
    equityIntervalMicros: 0,
    sources: [],
    strategySource: undefined,
    configDigest: r.digest,
    ticks: 0,
    firstTickTime: r.first,
    lastTickTime: r.last,
    instruments: [...r.perInstrument].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    summary: accountSummaryView(state) as unknown as V20AccountSummary,
    strategyLog: [],
    ...(options.source === undefined ? {} : { journal: options.source }),
  };
}

/** Rebuilds the account of `entries` and reports it as a backtest result, held in memory (reportJournalToFiles streams). */
export function reportFromJournal(entries: Iterable<JournalEntry>, options: JournalReportOptions = {}): BacktestResult {
  const arrays = new EquityArrays();
  const log: Transaction[] = [];
  const lines: string[] = [];
  const replayed = replayJournal(entries, options, arrays, (tx, line) => {
    log.push(tx);
    lines.push(line);
  });
  const state = replayed.account.state;
  const base = {
    ...journalSummaryParts(replayed, options),
    transactions: log,
    transactionLines: lines,
    equity: arrays.curve,
    prices: arrays.prices,
    trades: tradeRows(state, log),
  };
  const costs = { spreadCost: replayed.spreadCost.toNumber(), financing: new Decimal(state.financing).toNumber() };
  return { ...base, metrics: computeMetrics({ ...base, ...costs, transactions: log }) };
}
