import type { TransactionsLostRecord } from '../domain/journal-entry.js';
import type { AccountState } from './state.js';

/**
 * IDs lost to a damaged journal stay taken: the next transaction continues after `toID`, so an ID
 * a client was once given never names another transaction (the record: domain/journal-entry.ts).
 */
export function evolveTransactionsLost(state: AccountState, record: TransactionsLostRecord): AccountState {
  const from = Number(record.fromID);
  const to = Number(record.toID);
  if (from !== state.lastTransactionID + 1 || !(to >= from)) {
    throw new Error(`journal gap: lost transactions ${record.fromID}-${record.toID} after ${state.lastTransactionID}`);
  }
  state.lastTransactionID = to;
  return state;
}
