/**
 * Shared fixtures for the account-core tests: an account on a simulated clock that moves one
 * second per message, and typed accessors for the transactions an outcome or the log holds.
 * Not a test file itself; nothing here asserts.
 */
import { buildCatalogue } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';
import type { OrderCancelTransaction, OrderFillTransaction, OrderTransaction, Transaction } from '../domain/transactions.js';
import type { OrderRequest } from '../orders/request.js';
import { Account } from './account.js';
import type { AccountCommand, Outcome } from './commands.js';
import { balanceOf, type AccountConfig, type AccountState } from './state.js';
import { plOf } from './realized-pl.js';
import { sideUnits } from './side-sums.js';

export const ACCOUNT_ID = '101-004-1234567-001';
export const USER_ID = 1234567;
/** Monday 2024-05-06 12:00:00Z (New York is on EDT, UTC-4). */
export const T0: Micros = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
export const SECOND: Micros = 1_000_000;

export const CATALOGUE = buildCatalogue();

/** RFC3339 with nine fractional digits, as the account stamps transactions. */
export function iso(t: Micros): string {
  return `${new Date(t / 1000).toISOString().slice(0, 23)}000000Z`;
}

export interface SimOptions {
  readonly currency?: string;
  readonly balance?: string;
  readonly hedgingEnabled?: boolean;
  readonly marginRate?: string;
  readonly alias?: string;
  readonly start?: Micros;
  readonly homeConversionFee?: string;
  readonly marginCloseout?: boolean;
  readonly mt4AccountID?: number;
}

/** An account plus a clock. Each quote and command happens one second after the previous message. */
export class Sim {
  readonly account: Account;
  now: Micros;

  constructor(options: SimOptions = {}) {
    this.now = options.start ?? T0;
    const config: { -readonly [K in keyof AccountConfig]: AccountConfig[K] } = { id: ACCOUNT_ID, currency: options.currency ?? 'USD' };
    if (options.balance !== undefined) config.balance = options.balance;
    if (options.hedgingEnabled !== undefined) config.hedgingEnabled = options.hedgingEnabled;
    if (options.marginRate !== undefined) config.marginRate = options.marginRate;
    if (options.alias !== undefined) config.alias = options.alias;
    if (options.homeConversionFee !== undefined) config.homeConversionFee = options.homeConversionFee;
    if (options.marginCloseout !== undefined) config.marginCloseout = options.marginCloseout;
    if (options.mt4AccountID !== undefined) config.mt4AccountID = options.mt4AccountID;
    this.account = Account.open(config, CATALOGUE, this.now);
  }

  /** Moves the clock forward (default one second) without telling the account. */
  step(seconds = 1): Micros {
    this.now += seconds * SECOND;
    return this.now;
  }

  /** A quote one second later. */
  quote(instrument: string, bid: number, ask: number): Micros {
    this.step();
    this.account.onQuote({ instrument, time: this.now, bid, ask });
    return this.now;
  }

  /** A command one second later. */
  exec(command: AccountCommand): Outcome {
    this.step();
    return this.account.execute(command, this.now);
  }

  order(order: OrderRequest): Outcome {
    return this.exec({ type: 'CREATE_ORDER', order });
  }

  /** Advances the account's clock to an absolute time. */
  advanceTo(t: Micros): void {
    this.now = t;
    this.account.advance(t);
  }

  get lastId(): number {
    return this.account.state.lastTransactionID;
  }

  /** Transaction by ID. */
  tx(id: number | string): Transaction {
    const tx = this.account.log.get(Number(id));
    if (tx === undefined) throw new Error(`no transaction ${id}`);
    return tx;
  }

  /** Transactions with an ID greater than `id`. */
  since(id: number): Transaction[] {
    return this.account.log.slice(id);
  }

  /** Opens a trade with a MARKET order at the current quote and returns its ID (= the fill ID). */
  openTrade(instrument: string, units: string, extra: Record<string, unknown> = {}): number {
    const out = this.order({ type: 'MARKET', instrument, units, ...extra });
    const fill = out.response['orderFillTransaction'] as OrderFillTransaction | undefined;
    if (fill?.tradeOpened === undefined) throw new Error(`no trade opened: ${JSON.stringify(out.response)}`);
    return Number(fill.tradeOpened.tradeID);
  }
}

/** A position side's units as text (undefined without a position in the instrument). */
export function sideUnitsText(state: AccountState, instrument: string, key: 'long' | 'short'): string | undefined {
  const position = state.positions.get(instrument);
  return position === undefined ? undefined : sideUnits(position[key]).toString();
}

export function createTx(outcome: Outcome, key = 'orderCreateTransaction'): OrderTransaction {
  return required(outcome, key) as OrderTransaction;
}

export function fillTx(outcome: Outcome, key = 'orderFillTransaction'): OrderFillTransaction {
  return required(outcome, key) as OrderFillTransaction;
}

export function cancelTx(outcome: Outcome, key = 'orderCancelTransaction'): OrderCancelTransaction {
  return required(outcome, key) as OrderCancelTransaction;
}

export function rejectTx(outcome: Outcome, key = 'orderRejectTransaction'): OrderTransaction {
  return required(outcome, key) as OrderTransaction;
}

function required(outcome: Outcome, key: string): Transaction {
  const tx = outcome.response[key];
  if (tx === undefined) throw new Error(`outcome has no ${key}: ${Object.keys(outcome.response).join(', ') || '(empty)'}`);
  return tx;
}

/** A field of any transaction, for assertions on fields the union does not share. */
export function field(tx: Transaction | undefined, name: string): unknown {
  return tx === undefined ? undefined : (tx as unknown as Record<string, unknown>)[name];
}

/** Type and reason/rejectReason of each transaction: a compact picture of a batch. */
export function shape(transactions: readonly Transaction[]): string[] {
  return transactions.map((tx) => {
    const reason = field(tx, 'rejectReason') ?? field(tx, 'reason');
    return reason === undefined ? tx.type : `${tx.type}:${String(reason)}`;
  });
}

/** Everything a reject must leave unchanged, as plain JSON. */
export function bookSnapshot(account: Account): unknown {
  const s = account.state;
  return JSON.parse(
    JSON.stringify({
      balance: balanceOf(s).toString(),
      pl: plOf(s).toString(),
      alias: s.alias,
      marginRate: s.marginRate ?? null,
      pendingCount: s.pendingCount,
      openTradeCount: s.openTradeCount,
      orders: [...s.orders.values()].map((o) => ({
        id: o.id,
        state: o.state,
        ce: o.clientExtensions ?? null,
        tce: o.tradeClientExtensions ?? null,
      })),
      trades: [...s.trades.values()].map((t) => ({
        id: t.id,
        units: t.currentUnits.toString(),
        state: t.state,
        ce: t.clientExtensions ?? null,
        tp: t.takeProfitOrderID ?? null,
        sl: t.stopLossOrderID ?? null,
      })),
      positions: [...s.positions.values()].map((p) => ({
        i: p.instrument,
        l: sideUnits(p.long).toString(),
        s: sideUnits(p.short).toString(),
      })),
      clientOrderIds: [...s.clientOrderIds.entries()],
      clientTradeIds: [...s.clientTradeIds.entries()],
    }),
  );
}
