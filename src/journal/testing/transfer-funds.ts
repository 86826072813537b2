import type { Transaction } from '../../domain/transactions.js';

/** A TRANSFER_FUNDS of 1.0000 as the journal tests write it: the transaction ID is also its batch ID. */
export function transferFunds(accountID: string, id: number, comment?: string): Transaction {
  return {
    type: 'TRANSFER_FUNDS',
    amount: '1.0000',
    ...(comment === undefined ? {} : { comment }),
    id: String(id),
    accountID,
    userID: 1,
    batchID: String(id),
    time: '2024-01-02T00:00:00.000000000Z',
  } as unknown as Transaction;
}
