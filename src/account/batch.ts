import { formatRfc3339, type Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import { evolve } from './evolve.js';
import type { AccountState } from './state.js';

type Body<T> = T extends Transaction ? Omit<T, 'id' | 'accountID' | 'userID' | 'batchID' | 'requestID' | 'time'> : never;
export type TransactionBody = Body<Transaction>;

/**
 * The transactions one command or one quote creates. Decisions never touch state directly: each
 * transaction is stamped (consecutive ID, shared batchID, simulated time) and folded in through
 * evolve() before the next decision, so later steps of the batch see earlier ones.
 */
export class Batch {
  readonly transactions: Transaction[] = [];
  readonly time: string;
  private batchID: string | undefined;

  constructor(
    readonly state: AccountState,
    readonly now: Micros,
    private readonly requestID: string | undefined,
  ) {
    this.time = formatRfc3339(now);
  }

  /** The ID the next emitted transaction will get. */
  get nextId(): number {
    return this.state.lastTransactionID + 1;
  }

  emit<T extends Transaction>(body: Body<T>): T {
    const id = String(this.state.lastTransactionID + 1);
    if (this.batchID === undefined) this.batchID = id;
    // The header goes after the type's own fields, as OANDA's servers print them, and onto the
    // body itself: copying a thirty-field fill into a new object costs more than deciding it.
    const tx = body as unknown as Record<string, unknown>;
    tx['id'] = id;
    tx['accountID'] = this.state.id;
    tx['userID'] = this.state.userID;
    tx['batchID'] = this.batchID;
    if (this.requestID !== undefined) tx['requestID'] = this.requestID;
    tx['time'] = this.time;
    const transaction = tx as unknown as T;
    evolve(this.state, transaction);
    this.transactions.push(transaction);
    return transaction;
  }
}
