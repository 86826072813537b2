/**
 * v20sim as a library: a deterministic OANDA v20 account simulator. Create an engine with
 * accounts, feed it quotes (recorded files, the seeded generator, or your own), send v20 commands,
 * read v20 resources and transactions.
 */
export { createEngine, type Engine, type EngineConfig, type RunInfo } from './engine/engine.js';
export type { BookSnapshot, InstrumentBooks } from './engine/books.js';
export { Account, decide, type TransactionSink } from './account/account.js';
export type { AccountCommand, AccountCommandType, Outcome } from './account/commands.js';
export type { AccountConfig, AccountState } from './account/state.js';
export { evolve } from './account/evolve.js';
export {
  accountChangesStateView,
  accountChangesView,
  accountSummaryView,
  accountView,
  orderView,
  pendingOrders,
  positionView,
  tradeSummaryView,
  tradeView,
} from './account/views.js';
export { MemoryJournal, serializeTransaction, type Journal } from './journal/journal.js';
export { DEFAULT_INSTRUMENTS, buildCatalogue, type InstrumentOverride, type InstrumentSpec } from './domain/instruments.js';
export type { Tick } from './domain/tick.js';
export type * from './domain/transactions.js';
export {
  formatDateTime,
  formatRfc3339,
  formatUnix,
  nextNewYorkFivePm,
  parseDateTime,
  type DatetimeFormat,
  type Micros,
} from './domain/time.js';
export { rejectMessage } from './domain/reject-reasons.js';
export { LIMITS } from './domain/limits.js';
export type { OrderRequest } from './orders/request.js';
export { orderMachine, type OrderState } from './orders/lifecycle.js';
export * from './engine/feeds/index.js';
export * from './backtest/index.js';
