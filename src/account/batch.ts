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
    const header: Record<string, unknown> = {
      id,
      accountID: this.state.id,
      userID: this.state.userID,
      batchID: this.batchID,
    };
    if (this.requestID !== undefined) header['requestID'] = this.requestID;
    header['time'] = this.time;
    const tx = Object.assign(header, body) as unknown as T;
    evolve(this.state, tx);
    this.transactions.push(tx);
    return tx;
  }
}
