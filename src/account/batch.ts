import { formatRfc3339, type Micros } from '../domain/time.js';
import { jsonString, jsonValue, rememberJson } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';
import { evolve } from './evolve.js';
import type { AccountState } from './state.js';

type Body<T> = T extends Transaction ? Omit<T, 'id' | 'accountID' | 'userID' | 'batchID' | 'requestID' | 'time'> : never;
export type TransactionBody = Body<Transaction>;

let lastAccount: { id: string; userID: number; json: string } | undefined;

/** `,"accountID":…,"userID":…` of an account's transactions (kept for the last account seen). */
function accountJson(state: AccountState): string {
  if (lastAccount === undefined || lastAccount.id !== state.id || lastAccount.userID !== state.userID) {
    lastAccount = { id: state.id, userID: state.userID, json: `,"accountID":${jsonString(state.id)},"userID":${jsonValue(state.userID)}` };
  }
  return lastAccount.json;
}

/**
 * The transactions one command or one quote creates. Decisions never touch state directly: each
 * transaction is stamped (consecutive ID, shared batchID, simulated time) and folded in through
 * evolve() before the next decision, so later steps of the batch see earlier ones.
 */
export class Batch {
  readonly transactions: Transaction[] = [];
  readonly time: string;
  private batchID: string | undefined;
  /** `,"accountID":…,"userID":…` and `,"requestID":…,"time":…}`: the header's fixed parts as JSON. */
  private accountJson: string | undefined;
  private tailJson: string | undefined;

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

  /**
   * Stamps, folds in and records a transaction. `json`, when the caller has it, is the body as
   * JSON.stringify would print it, without the closing brace: the header is appended and the line
   * kept for the journal (domain/transaction-json.ts).
   */
  emit<T extends Transaction>(body: Body<T>, json?: string): T {
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
    if (json !== undefined) rememberJson(transaction, `${json},"id":"${id}"${this.accountJson ??= accountJson(this.state)},"batchID":"${this.batchID}"${this.tailJson ??= this.headerTail()}`);
    this.transactions.push(transaction);
    return transaction;
  }

  private headerTail(): string {
    const requestID = this.requestID === undefined ? '' : `,"requestID":${jsonValue(this.requestID)}`;
    return `${requestID},"time":${jsonString(this.time)}}`;
  }
}
