/**
 * Every collection the simulator grows, and every request it takes, has a named maximum; exceeding
 * one is a clear error. The limits that are OANDA's cite their source (the facts sheet,
 * ../shared/spec/oanda-v20-facts.md); the others are the simulator's own bounds on memory and work.
 */
export const LIMITS = {
  pendingOrdersPerAccount: 500_000,
  openTradesPerAccount: 500_000,
  clientExtensionFieldLength: 128,
  aliasLength: 128,
  accountsPerEngine: 10_000,
  instrumentsPerEngine: 1_000,
  deadlinesPerEngine: 1_000_000,
  /** OANDA: GET orders and trades take `count` default 50, at most 500 (facts sheet, endpoints table). */
  ordersPageMax: 500,
  ordersPageDefault: 50,
  /** OANDA: GET transactions takes `pageSize` default 100, at most 1000 (facts sheet, endpoints table). */
  transactionsPageMax: 1000,
  transactionsPageDefault: 100,
  /** OANDA: transactions/sinceid returns at most 1000 transactions per call (facts sheet, transactions). */
  sinceIdMax: 1000,
  ticksPerPush: 10_000,
  /**
   * Largest deposit or withdrawal, in account units: a trillion, beyond any real account, so a
   * 50-digit amount is AMOUNT_INVALID rather than a balance no report can print sensibly.
   */
  transferAmountMax: '1000000000000',
} as const;

/**
 * OANDA: a candles request takes `count` at most 5000, and a from/to span over 5000 candles is a
 * 400 "Maximum value for 'count' exceeded" (facts sheet, Candles).
 */
export const CANDLES_COUNT_MAX = 5000;

/**
 * Most candles kept per instrument and stored granularity by default; the oldest are dropped
 * beyond it. At about 112 bytes a candle, 20,000 keep a series under 2.3 MB (S5: 27 hours,
 * M1: two weeks, H1: two years); servers that need more history raise `candlesPerSeriesMax`.
 */
export const CANDLES_PER_SERIES_MAX = 20_000;

/**
 * Order and position book snapshots an engine keeps: one week of OANDA's 20-minute schedule
 * (7 x 72). A `time` older than the oldest kept snapshot answers 404, as a time before any
 * snapshot does.
 */
export const BOOK_SNAPSHOTS_MAX = 7 * 72;

/** Most page URLs one transactions listing returns; narrow the range or raise pageSize beyond it. */
export const TRANSACTION_PAGES_MAX = 100_000;

/**
 * Most stream clients (transactions and pricing together) one server keeps open at once. OANDA
 * allows 20 active streams per client (facts sheet, rate limits); the simulator serves many
 * test clients, so its bound is on memory instead.
 */
export const STREAM_CLIENTS_MAX = 1000;
/** Unsent bytes a stream client may pile up before it is dropped, unless configured. */
export const STREAM_BUFFER_MAX_DEFAULT = 8 * 1024 * 1024;

/** Limits of the control API (/sim). */
export const SIM_LIMITS = {
  /** Ticks in one POST /sim/ticks. */
  ticksPerPush: LIMITS.ticksPerPush,
  /** Body of POST /sim/ticks: 10,000 ticks with closeout prices fit with room to spare. */
  ticksBodyBytes: 4 * 1024 * 1024,
  /** Largest single clock step of POST /sim/clock/advance: ten years. */
  advanceSecondsMax: 10 * 366 * 86_400,
  /** Transactions per chunk of the NDJSON journal export. */
  exportChunk: 512,
  commentLength: 128,
  /** The latest simulated time the control API accepts: 2200-01-01T00:00:00Z. */
  latestTime: 7_258_118_400 * 1_000_000,
} as const;

/** Most lines a strategy may log in one backtest run. */
export const STRATEGY_LOG_LINES_MAX = 100_000;
/** Most transactions one delivery round may hand to onTransaction (a strategy answering its own transactions forever). */
export const TRANSACTIONS_PER_DELIVERY_MAX = 1_000_000;
/** Most parameter combinations one sweep may run. */
export const SWEEP_COMBINATIONS_MAX = 10_000;
/** Most values one `a:b:step` sweep range may expand to. */
export const RANGE_VALUES_MAX = 1_000;
