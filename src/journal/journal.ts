import type { JournalEntry } from '../domain/journal-entry.js';
import { transactionJson } from '../domain/transaction-json.js';
import type { Transaction } from '../domain/transactions.js';

/**
 * The persistence port: the transaction log of every account, in order. The journal is the source
 * of truth; accounts, orders, trades, positions and the trigger index are folded from it.
 */
export interface Journal {
  /** Appends a batch: its transactions, with the trailing stop levels they caused among them. */
  append(accountId: string, entries: readonly JournalEntry[]): void;
  /** Every entry of an account, oldest first. */
  read(accountId: string): JournalEntry[];
  accountIds(): string[];
}

/** One transaction per line, as the journal and the transaction stream write it: JSON.stringify(tx), byte for byte. */
export function serializeTransaction(tx: Transaction): string {
  return transactionJson(tx);
}

/** One journal line: a transaction as serializeTransaction prints it, a record as JSON.stringify does. */
export function serializeEntry(entry: JournalEntry): string {
  return transactionJson(entry as Transaction);
}

/** Keeps each account's log as serialized lines: the same bytes a file journal would hold. */
export class MemoryJournal implements Journal {
  private readonly lines = new Map<string, string[]>();

  append(accountId: string, entries: readonly JournalEntry[]): void {
    let lines = this.lines.get(accountId);
    if (lines === undefined) {
      lines = [];
      this.lines.set(accountId, lines);
    }
    for (const entry of entries) lines.push(serializeEntry(entry));
  }

  read(accountId: string): JournalEntry[] {
    return (this.lines.get(accountId) ?? []).map((line) => JSON.parse(line) as JournalEntry);
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
