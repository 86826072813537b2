import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { FileJournal } from './file-journal.js';
import { MemoryJournal, type Journal } from './journal.js';

const A = '101-004-1000000-001';

function tx(id: number, comment?: string): Transaction {
  return {
    type: 'TRANSFER_FUNDS',
    amount: '1.0000',
    id: String(id),
    accountID: A,
    userID: 1000000,
    batchID: String(id),
    time: '2024-01-02T00:00:00.000000000Z',
    ...(comment === undefined ? {} : { comment }),
  } as unknown as Transaction;
}

/** A trailing stop level record: a journal line that takes no transaction ID. */
const record: JournalEntry = { type: 'TRAILING_STOP_VALUE', orderID: '3', trailingStopValue: '1.10000', time: '2024-01-02T00:00:00Z' };

/** Transactions 1..count in batches of three, a record after every batch. */
function fill(journal: Journal, count: number): void {
  for (let id = 1; id <= count; id += 3) {
    const batch: JournalEntry[] = [];
    for (let j = id; j < Math.min(id + 3, count + 1); j += 1) batch.push(tx(j));
    journal.append(A, [...batch, record]);
  }
}

const ids = (txs: Iterable<Transaction>, limit = Number.POSITIVE_INFINITY): string[] => {
  const out: string[] = [];
  for (const t of txs) {
    if (out.length >= limit) break;
    out.push(t.id);
  }
  return out;
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-from-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['MemoryJournal', (): Journal => new MemoryJournal()],
  ['FileJournal', (): Journal => FileJournal.open(dir)],
])('%s.transactionsFrom', (_name, make) => {
  it('yields the transactions from an ID on, skipping records, and stops when the reader stops', () => {
    const journal = make();
    fill(journal, 10);
    expect(ids(journal.transactionsFrom(A, 1))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(ids(journal.transactionsFrom(A, 4), 3)).toEqual(['4', '5', '6']);
    expect(ids(journal.transactionsFrom(A, 11))).toEqual([]);
    expect(ids(journal.transactionsFrom('101-004-1000000-009', 1))).toEqual([]);
  });

  it('reads sealed batches as exported, and IDs past a TRANSACTIONS_LOST record from its toID on', () => {
    const journal = make();
    fill(journal, 6);
    const lost: JournalEntry = { type: 'TRANSACTIONS_LOST', fromID: '7', toID: '9', time: '2024-01-02T00:00:00Z' };
    journal.append(A, [lost, tx(10), tx(11)]);
    expect(ids(journal.transactionsFrom(A, 1))).toEqual(['1', '2', '3', '4', '5', '6', '10', '11']);
    expect(ids(journal.transactionsFrom(A, 10))).toEqual(['10', '11']);
    for (const t of journal.transactionsFrom(A, 1)) expect(Object.keys(t)).not.toContain('batch');
  });

  it('sees transactions appended while a reader iterates', () => {
    const journal = make();
    fill(journal, 3);
    const seen: string[] = [];
    for (const t of journal.transactionsFrom(A, 1)) {
      seen.push(t.id);
      if (t.id === '3') journal.append(A, [tx(4)]);
    }
    expect(seen).toEqual(['1', '2', '3', '4']);
  });
});

it('FileJournal reads a journal larger than one read chunk (1 MiB) line by line', () => {
  const journal = FileJournal.open(dir);
  const n = 6000;
  const pad = 'x'.repeat(300);
  for (let id = 1; id <= n; id += 500)
    journal.append(
      A,
      Array.from({ length: 500 }, (_, k) => tx(id + k, pad)),
    );
  const got = ids(journal.transactionsFrom(A, 2));
  expect(got).toHaveLength(n - 1);
  expect(got.at(-1)).toBe(String(n));
  journal.close();
});
