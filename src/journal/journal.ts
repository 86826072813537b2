import { transactionJson } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';

/**
 * The persistence port: the transaction log of every account, in order. The journal is the source
 * of truth; accounts, orders, trades, positions and the trigger index are folded from it.
 */
export interface Journal {
  append(accountId: string, transactions: readonly Transaction[]): void;
  /** Every transaction of an account, oldest first. */
  read(accountId: string): Transaction[];
  accountIds(): string[];
}

/** One transaction per line, as the journal and the transaction stream write it: JSON.stringify(tx), byte for byte. */
export function serializeTransaction(tx: Transaction): string {
  return transactionJson(tx);
}

/** Keeps each account's log as serialized lines: the same bytes a file journal would hold. */
export class MemoryJournal implements Journal {
  private readonly lines = new Map<string, string[]>();

  append(accountId: string, transactions: readonly Transaction[]): void {
    let lines = this.lines.get(accountId);
    if (lines === undefined) {
      lines = [];
      this.lines.set(accountId, lines);
    }
    for (const tx of transactions) lines.push(serializeTransaction(tx));
  }

  read(accountId: string): Transaction[] {
    return (this.lines.get(accountId) ?? []).map((line) => JSON.parse(line) as Transaction);
  }

  accountIds(): string[] {
    return [...this.lines.keys()];
  }

  /** The log as NDJSON text, for byte-for-byte comparison and export. */
  text(accountId: string): string {
    const lines = this.lines.get(accountId) ?? [];
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  lineCount(accountId: string): number {
    return this.lines.get(accountId)?.length ?? 0;
  }
}
