import { accountSummaryView } from '../account/views.js';
import { Decimal, ZERO, isDecimalString } from '../domain/decimal.js';
import type { EnumSpelling } from '../domain/enum-spelling.js';
import type { InstrumentOverride } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import { windowEnds, windowText, type TickWindow } from '../engine/feeds/window.js';
import { MICROS_PER_MINUTE, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { createEngine, type AccountView, type Engine, type RecordsInMemory } from '../engine/engine.js';
import { serializeTransaction } from '../journal/journal.js';
import { EngineStrategyContext } from './context.js';
import { tickCursor, type TickCursor } from './tick-cursor.js';
import { KeptTransactions, RecordingJournal, type JournalStore } from './run-journal.js';
import { StrategyHooks } from './hooks.js';
import {
  EquityArrays,
  EquityRecorder,
  POINT_END,
  POINT_INTERVAL,
  POINT_START,
  type EquityCurve,
  type EquitySink,
  type PriceSeries,
} from './equity.js';
import { accountSettingsOf, type AccountSettings } from './account-settings.js';
import { configDigest } from './config-digest.js';
import { computeMetrics, type Metrics } from './report.js';
import { resolveParams } from './params.js';
import type { Frozen, StrategyDefinition, StrategyParams } from './strategy.js';
import { tradeRows, type TradeRow } from './trades.js';
import type { V20AccountSummary } from './v20.js';

export const DEFAULT_ACCOUNT_ID = '101-004-1000001-001';
export const DEFAULT_BALANCE = '100000';
export const DEFAULT_EQUITY_INTERVAL: Micros = MICROS_PER_MINUTE;
const DEFAULT_PROGRESS_EVERY = 1 << 16;

export interface BacktestAccountOptions {
  /** A v20 account ID (default 101-004-1000001-001). */
  readonly id?: string;
  /** Home currency (default USD). */
  readonly currency?: string;
  /** Opening deposit, a decimal string (default 100000). */
  readonly balance?: string;
  readonly hedgingEnabled?: boolean;
  readonly marginRate?: string;
  /** The division whose margin rates the instruments take (default OANDA Europe, ESMA). */
  readonly marginPreset?: string;
  /** Whether a margin closeout closes the positions (default true). */
  readonly marginCloseout?: boolean;
  /** The home-currency conversion fee, a decimal string in [0, 0.1) (default "0.005"). */
  readonly homeConversionFee?: string;
}

/** A tick file the run read, recorded in the report (DESIGN: a run records its data digest). */
export interface TickSourceInfo {
  readonly file: string;
  readonly sha256: string;
}

export interface BacktestOptions<P extends StrategyParams = StrategyParams> {
  readonly strategy: StrategyDefinition<P>;
  /** Values that replace the definition's defaults (each of the default's type). */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Quotes in time order (several files: mergeByTime). Iterated once. */
  readonly ticks: Iterable<Tick>;
  readonly account?: BacktestAccountOptions;
  readonly instruments?: readonly InstrumentOverride[];
  /** Simulated time between mark-to-market points (default one minute); points are also taken at every fill. */
  readonly equityIntervalMicros?: Micros;
  /** Called every `progressEvery` ticks with the count so far and the simulated time. */
  readonly onProgress?: (ticks: number, time: Micros) => void;
  /** A power of two (default 65,536). */
  readonly progressEvery?: number;
  /** Recorded in the report only. */
  readonly sources?: readonly TickSourceInfo[];
  /**
   * The period the ticks were taken from (openTicks' from/to), recorded in the report and its
   * configuration digest only: `ticks` is already within it.
   */
  readonly window?: TickWindow;
  /** The strategy module's file name and digest, recorded in the report only. */
  readonly strategySource?: TickSourceInfo;
  /** How the Order resources a strategy reads spell DEFAULT values (domain/enum-spelling.ts); default 'interface'. */
  readonly enumSpelling?: EnumSpelling;
  /**
   * The newest this many transactions stay in the account's memory, older ones are read back from
   * the run's journal (serve's transactionsInMemory). Default: all of them for runBacktest, whose
   * result holds the whole log; runBacktestToFiles keeps DEFAULT_BACKTEST_WINDOW.
   */
  readonly transactionsInMemory?: number;
  /**
   * The newest this many ended orders, and as many closed trades, stay in the account's memory,
   * older ones are paged out to a scratch file and read back when asked (account/id-table.ts).
   * runBacktestToFiles only (default DEFAULT_RECORD_WINDOW); runBacktest keeps them all.
   */
  readonly recordsInMemory?: number;
}

export interface BacktestResult {
  readonly strategy: string;
  readonly params: Readonly<Record<string, string | number | boolean>>;
  readonly accountID: string;
  readonly currency: string;
  readonly initialBalance: string;
  /** The account's settings besides its currency and balance: hedging always, the others when set. */
  readonly accountSettings: AccountSettings;
  readonly equityIntervalMicros: Micros;
  readonly sources: readonly TickSourceInfo[];
  /** The period the ticks were taken from, when the run was given one. */
  readonly window?: TickWindow;
  readonly strategySource: TickSourceInfo | undefined;
  /** SHA-256 of the run's configuration: strategy name, parameters, account, equity interval, instrument overrides, window. */
  readonly configDigest: string;
  readonly ticks: number;
  readonly firstTickTime: Micros;
  readonly lastTickTime: Micros;
  /** Ticks per instrument, by instrument name. */
  readonly instruments: ReadonlyArray<readonly [string, number]>;
  /** The account's transaction log, and the same serialized one per line (serializeTransaction). */
  readonly transactions: readonly Frozen<Transaction>[];
  readonly transactionLines: readonly string[];
  readonly equity: EquityCurve;
  readonly prices: ReadonlyMap<string, PriceSeries>;
  readonly trades: readonly TradeRow[];
  /** The AccountSummary after onEnd. */
  readonly summary: V20AccountSummary;
  readonly strategyLog: readonly string[];
  readonly metrics: Metrics;
  /** Set when the result was rebuilt from a served account's journal (journal-report.ts), not run over ticks. */
  readonly journal?: string;
}

/** What a run reports besides its whole log and curve: bounded by the trades, not by the ticks. */
export type BacktestSummary = Omit<BacktestResult, 'transactions' | 'transactionLines' | 'equity' | 'prices'>;

/** Where a run puts its transactions and equity points. */
export interface RunStores {
  readonly journal: JournalStore;
  readonly equity: EquitySink;
  /** Where the account pages out its ended orders and closed trades; absent: it keeps them all. */
  readonly records?: RecordsInMemory;
}

/**
 * Runs a strategy over ticks in one account, synchronously and deterministically: the same
 * definition, parameters, options and ticks give the same transactions, equity and metrics in any
 * process. The account is opened at the first tick's time.
 */
export function runBacktest<P extends StrategyParams>(options: BacktestOptions<P>): BacktestResult {
  const journal = new KeptTransactions();
  const equity = new EquityArrays();
  const { setup, outcome } = runInto(options, { journal, equity });
  return resultOf(options, setup, outcome, equity);
}

/**
 * runBacktest's run, with the transactions and equity points going to `stores` as they happen;
 * returns what the reports need besides them (runBacktestToFiles streams them to disk).
 */
export function runInto<P extends StrategyParams>(
  options: BacktestOptions<P>,
  stores: RunStores,
): { setup: RunSetup<P>; outcome: RunOutcome } {
  const definition = options.strategy;
  const params = resolveParams(definition, options.params ?? {});
  const interval = options.equityIntervalMicros ?? DEFAULT_EQUITY_INTERVAL;
  if (!Number.isSafeInteger(interval) || interval <= 0)
    throw new Error(`equity interval must be a positive whole number of microseconds, got ${interval}`);
  const progressEvery = options.progressEvery ?? DEFAULT_PROGRESS_EVERY;
  if (!Number.isSafeInteger(progressEvery) || progressEvery <= 0 || (progressEvery & (progressEvery - 1)) !== 0)
    throw new Error('progressEvery must be a power of two');
  const progressMask = progressEvery - 1;
  const accountID = options.account?.id ?? DEFAULT_ACCOUNT_ID;
  const currency = options.account?.currency ?? 'USD';
  const balance = options.account?.balance ?? DEFAULT_BALANCE;
  if (!isDecimalString(balance) || new Decimal(balance).isNegative())
    throw new Error(`balance must be a non-negative decimal, got ${JSON.stringify(balance)}`);

  const cursor = tickCursor(options.ticks);
  let first: Tick | undefined;
  try {
    first = cursor.next();
  } catch (error) {
    cursor.close();
    throw error;
  }
  if (first === undefined) throw new Error(`the tick source holds no ticks${windowText(windowEnds(options.window))}`);

  const window = options.transactionsInMemory;
  if (window !== undefined && (!Number.isSafeInteger(window) || window < 1))
    throw new Error(`transactionsInMemory must be a whole number of at least 1, got ${window}`);
  const setup: RunSetup<P> = { definition, params, interval, progressMask, accountID, currency, balance, window };
  try {
    return { setup, outcome: run(options, setup, cursor, first, stores) };
  } catch (error) {
    cursor.close();
    throw error;
  }
}

/** runBacktest's options, checked. */
export interface RunSetup<P extends StrategyParams = StrategyParams> {
  readonly definition: StrategyDefinition<P>;
  readonly params: P;
  readonly interval: Micros;
  readonly progressMask: number;
  readonly accountID: string;
  readonly currency: string;
  readonly balance: string;
  readonly window: number | undefined;
}

/** The backtest's engine with its one account open, journaling to `journal`. */
function openAccount<P extends StrategyParams>(
  options: BacktestOptions<P>,
  setup: RunSetup<P>,
  start: Micros,
  journal: RecordingJournal,
  records: RecordsInMemory | undefined,
): { engine: Engine; account: AccountView } {
  const { accountID, currency, balance } = setup;
  const engine = createEngine({
    accounts: [
      {
        id: accountID,
        currency,
        balance,
        ...(options.account?.hedgingEnabled === undefined ? {} : { hedgingEnabled: options.account.hedgingEnabled }),
        ...(options.account?.marginRate === undefined ? {} : { marginRate: options.account.marginRate }),
        ...(options.account?.marginPreset === undefined ? {} : { marginPreset: options.account.marginPreset }),
        ...(options.account?.marginCloseout === undefined ? {} : { marginCloseout: options.account.marginCloseout }),
        ...(options.account?.homeConversionFee === undefined ? {} : { homeConversionFee: options.account.homeConversionFee }),
      },
    ],
    ...(options.instruments === undefined ? {} : { instruments: options.instruments }),
    start,
    journal,
    seed: 0,
    ...(setup.window === undefined ? {} : { transactionsInMemory: setup.window }),
    ...(records === undefined ? {} : { recordsInMemory: records }),
  });
  const account = engine.account(accountID);
  if (account === undefined) throw new Error(`backtest: account ${accountID} did not open`);
  return { engine, account };
}

/** What a finished run has to report from. */
export interface RunOutcome {
  readonly account: AccountView;
  readonly logged: readonly string[];
  readonly perInstrument: ReadonlyMap<string, number>;
  readonly count: number;
  readonly first: Tick;
  readonly last: Tick;
}

/** The run's description, trades and metrics: everything but the whole log and curve. */
export function summaryOf<P extends StrategyParams>(
  options: BacktestOptions<P>,
  setup: RunSetup<P>,
  outcome: RunOutcome,
  trades: readonly TradeRow[],
  metrics: (parts: { readonly trades: readonly TradeRow[]; readonly summary: V20AccountSummary; readonly financing: number }) => Metrics,
): BacktestSummary {
  const { definition, params, interval, accountID, currency, balance } = setup;
  const { account, perInstrument, count, first, last } = outcome;
  const state = account.state;
  const summary = accountSummaryView(state) as unknown as V20AccountSummary;
  const instruments = [...perInstrument].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const settings = accountSettingsOf(options.account);
  const window = windowEnds(options.window);
  return {
    strategy: definition.name,
    params: { ...params },
    accountID,
    currency,
    initialBalance: balance,
    accountSettings: settings,
    equityIntervalMicros: interval,
    sources: options.sources ?? [],
    ...(window === undefined ? {} : { window }),
    strategySource: options.strategySource,
    configDigest: configDigest({
      strategy: definition.name,
      params,
      accountID,
      currency,
      balance,
      settings,
      interval,
      window,
      instruments: options.instruments,
    }),
    ticks: count,
    firstTickTime: first.time,
    lastTickTime: last.time,
    instruments,
    trades,
    summary,
    strategyLog: outcome.logged,
    metrics: metrics({ trades, summary, financing: state.financing.toNumber() }),
  };
}

function resultOf<P extends StrategyParams>(
  options: BacktestOptions<P>,
  setup: RunSetup<P>,
  outcome: RunOutcome,
  equity: EquityArrays,
): BacktestResult {
  const state = outcome.account.state;
  // runBacktest keeps its whole log in memory (no window unless asked): this copies the references only.
  const log = outcome.account.log.slice();
  let spreadCost = ZERO;
  for (const tx of log) if (tx.type === 'ORDER_FILL') spreadCost = spreadCost.plus(tx.halfSpreadCost);
  const base = summaryOf(options, setup, outcome, tradeRows(state, log), (parts) =>
    computeMetrics({
      ...parts,
      ticks: outcome.count,
      firstTickTime: outcome.first.time,
      lastTickTime: outcome.last.time,
      initialBalance: setup.balance,
      equity: equity.curve,
      spreadCost: spreadCost.toNumber(),
      transactions: log,
    }),
  );
  const result = { ...base, transactions: log, equity: equity.curve, prices: equity.prices } as Omit<BacktestResult, 'transactionLines'>;
  // The journal lines are printed from the log on first read, then kept (a transaction never
  // changes once journaled, so its line is the same printed now or then).
  let lines: readonly string[] | undefined;
  return Object.defineProperty(result, 'transactionLines', {
    enumerable: true,
    get: () => (lines ??= log.map(serializeTransaction)),
  }) as BacktestResult;
}

/** Ticks counted per instrument, in runs of one instrument so the map is touched once per run. */
class TickCounts {
  count = 0;
  readonly perInstrument = new Map<string, number>();
  private instrument = '';
  private run = 0;

  add(tick: Tick): void {
    if (tick.instrument !== this.instrument) {
      this.flush();
      this.instrument = tick.instrument;
      this.run = 0;
    }
    this.run += 1;
    this.count += 1;
  }

  /** Adds the current run to the map (at the end of the ticks). */
  flush(): void {
    if (this.run > 0) this.perInstrument.set(this.instrument, (this.perInstrument.get(this.instrument) ?? 0) + this.run);
  }
}

/** The run itself, from the first tick (already read); the caller closes the tick source on an error. */
function run<P extends StrategyParams>(
  options: BacktestOptions<P>,
  setup: RunSetup<P>,
  cursor: TickCursor,
  first: Tick,
  stores: RunStores,
): RunOutcome {
  const { definition, params, interval, progressMask, accountID } = setup;
  const journal = new RecordingJournal(stores.journal);
  const { engine, account } = openAccount(options, setup, first.time, journal, stores.records);
  const recorder = new EquityRecorder(account.state, stores.equity);
  const ctx = new EngineStrategyContext<P>(engine, accountID, params, options.enumSpelling, definition.candles);
  const strategy = new StrategyHooks(definition, params, ctx, engine, journal.pending, recorder);
  const counts = new TickCounts();
  let last = first;
  recorder.record(first.time, POINT_START);
  strategy.start();
  let nextPoint = first.time - (first.time % interval) + interval;
  for (let tick: Tick | undefined = first; tick !== undefined; tick = cursor.next()) {
    if (tick.time >= nextPoint) {
      // The interval of the previous tick has ended: mark it at its end. Intervals without a
      // tick (a weekend) get no point, so the curve holds no days on which nothing traded.
      recorder.record(nextPoint, POINT_INTERVAL);
      nextPoint = tick.time - (tick.time % interval) + interval;
    }
    engine.pushTick(tick);
    strategy.tick(tick);
    counts.add(tick);
    last = tick;
    if ((counts.count & progressMask) === 0 && options.onProgress !== undefined) options.onProgress(counts.count, tick.time);
  }
  counts.flush();
  strategy.end();
  recorder.record(engine.now, POINT_END);
  options.onProgress?.(counts.count, last.time);
  const { perInstrument, count } = counts;
  return { account, logged: ctx.logged, perInstrument, count, first, last };
}
