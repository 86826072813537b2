import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { JournalCorruptError, JournalDamagedError } from './file-errors.js';
import { unsealLine } from './batch-seal.js';
import { FileJournal } from './file-journal.js';
import { MemoryJournal } from './journal.js';

const A = '101-004-1000000-001';
const B = '101-004-1000000-002';

/** A transaction's ID, or the order ID of a trailing stop level record. */
function idOf(entry: JournalEntry): string {
  if (isTransaction(entry)) return entry.id;
  return entry.type === 'TRAILING_STOP_VALUE' ? `record ${entry.orderID}` : `lost ${entry.fromID}-${entry.toID}`;
}

function tx(id: number, extra: Record<string, unknown> = {}): Transaction {
  return {
    type: 'TRANSFER_FUNDS',
    amount: '1.0000',
    id: String(id),
    accountID: A,
    userID: 1000000,
    batchID: String(id),
    time: '2024-01-02T00:00:00.000000000Z',
    ...extra,
  } as unknown as Transaction;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-journal-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('FileJournal', () => {
  it('appends one NDJSON line per transaction, the same bytes as MemoryJournal', () => {
    const journal = FileJournal.open(dir);
    const memory = new MemoryJournal();
    for (const batch of [[tx(1)], [tx(2), tx(3, { batchID: '2' })], [tx(4)]]) {
      journal.append(A, batch);
      memory.append(A, batch);
    }
    journal.append(A, []);
    // On disk each batch's last line carries its seal; stripped, the bytes are MemoryJournal's.
    const onDisk = readFileSync(join(dir, `${A}.ndjson`), 'utf8');
    expect(onDisk.split('\n').map((line) => unsealLine(line).text)).toEqual(memory.text(A).split('\n'));
    expect(onDisk.match(/"batch":\{"lines":(\d)/g)).toEqual(['"batch":{"lines":1', '"batch":{"lines":2', '"batch":{"lines":1']);
    expect(journal.text(A)).toBe(memory.text(A));
    expect(journal.read(A)).toEqual(memory.read(A));
    expect(journal.accountIds()).toEqual([A]);
    expect(journal.last(A)?.id).toBe('4');
    expect(journal.read(B)).toEqual([]);
    journal.close();
  });

  it('reads back the same transactions after a restart and keeps appending', () => {
    const first = FileJournal.open(dir);
    first.append(A, [tx(1), tx(2)]);
    first.append(B, [tx(1, { accountID: B })]);
    first.close();
    const second = FileJournal.open(dir);
    expect(second.recoveries).toEqual([]);
    expect(second.accountIds()).toEqual([A, B]);
    expect(second.read(A).map(idOf)).toEqual(['1', '2']);
    expect(second.last(B)?.accountID).toBe(B);
    second.append(A, [tx(3)]);
    second.close();
    expect(FileJournal.open(dir).read(A).map(idOf)).toEqual(['1', '2', '3']);
  });

  it('moves a torn last line aside, reports it, and continues', () => {
    const journal = FileJournal.open(dir);
    journal.append(A, [tx(1), tx(2)]);
    journal.close();
    const file = join(dir, `${A}.ndjson`);
    const sound = readFileSync(file);
    // A killed process: part of the next batch reached the file, the commit did not.
    const torn = '{"type":"MARKET_ORDER","instrument":"EUR_U';
    appendFileSync(file, torn);
    const reopened = FileJournal.open(dir);
    expect(reopened.recoveries).toHaveLength(1);
    const r = reopened.recoveries[0]!;
    expect(r).toMatchObject({ accountId: A, file, offset: sound.length, bytes: torn.length, movedTo: `${file}.torn-${sound.length}` });
    expect(r.reason).toMatch(/unfinished write/);
    expect(readFileSync(r.movedTo!, 'utf8')).toBe(torn);
    expect(readFileSync(file).equals(sound)).toBe(true);
    expect(reopened.read(A).map(idOf)).toEqual(['1', '2']);
    reopened.append(A, [tx(3)]);
    reopened.close();
    const again = FileJournal.open(dir);
    expect(again.recoveries).toEqual([]);
    expect(again.read(A).map(idOf)).toEqual(['1', '2', '3']);
  });

  it('drops whole lines of an unfinished batch: an order never replays without its fill', () => {
    const journal = FileJournal.open(dir);
    journal.append(A, [tx(1)]);
    journal.close();
    const file = join(dir, `${A}.ndjson`);
    const size = readFileSync(file).length;
    const partial = `${JSON.stringify(tx(2, { type: 'MARKET_ORDER' }))}\n{"type":"ORDER_FILL","id":"3"`;
    appendFileSync(file, partial);
    const reopened = FileJournal.open(dir);
    expect(reopened.recoveries[0]).toMatchObject({ offset: size, bytes: Buffer.byteLength(partial) });
    expect(reopened.read(A).map(idOf)).toEqual(['1']);
    reopened.close();
  });

  it('checks a journal without a commit file line by line: torn and unparsable last lines', () => {
    const file = join(dir, `${A}.ndjson`);
    const good = `${JSON.stringify(tx(1))}\n${JSON.stringify(tx(2))}\n`;
    writeFileSync(file, `${good}{"type":"TRANS`);
    const torn = FileJournal.open(dir);
    expect(torn.recoveries[0]).toMatchObject({ offset: Buffer.byteLength(good), reason: 'a torn last line (no trailing newline)' });
    expect(torn.read(A)).toHaveLength(2);
    torn.close();

    rmSync(join(dir, `${A}.commit`));
    writeFileSync(file, `${good}not json at all\n`);
    const unparsable = FileJournal.open(dir);
    expect(unparsable.recoveries[0]).toMatchObject({
      offset: Buffer.byteLength(good),
      reason: 'an unparsable last line',
      movedTo: `${file}.torn-${Buffer.byteLength(good)}-2`,
    });
    expect(readFileSync(unparsable.recoveries[0]!.movedTo!, 'utf8')).toBe('not json at all\n');
    expect(unparsable.read(A)).toHaveLength(2);
    unparsable.close();
  });

  it('refuses to open a journal with a corrupt line inside, naming file, line and offset, and changes nothing', () => {
    const file = join(dir, `${A}.ndjson`);
    const first = `${JSON.stringify(tx(1))}\n`;
    const text = `${first}garbage\n${JSON.stringify(tx(3))}\n`;
    writeFileSync(file, text);
    expect(() => FileJournal.open(dir)).toThrow(JournalDamagedError);
    expect(() => FileJournal.open(dir)).toThrow(`journal ${file} is damaged: line 2 is not a transaction at byte ${first.length}`);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(dir)).toEqual([`${A}.ndjson`]);
  });

  it('read() still names a line that does not parse (a file changed after open)', () => {
    const journal = FileJournal.open(dir);
    journal.append(A, [tx(1)]);
    const file = journal.path(A);
    const size = readFileSync(file).length;
    writeFileSync(file, `${'x'.repeat(size - 1)}\n`);
    expect(() => journal.read(A)).toThrow(JournalCorruptError);
    journal.close();
  });

  it('treats an empty or all-torn journal as no account', () => {
    writeFileSync(join(dir, `${A}.ndjson`), '{"type":"CRE');
    const journal = FileJournal.open(dir);
    expect(journal.recoveries).toHaveLength(1);
    expect(journal.accountIds()).toEqual([]);
    expect(journal.read(A)).toEqual([]);
    journal.close();
  });

  it('keeps a bounded number of files open and refuses IDs that cannot name a file', () => {
    const journal = FileJournal.open(dir, { maxOpenFiles: 2 });
    const ids = ['101-004-1-001', '101-004-1-002', '101-004-1-003'];
    for (let round = 1; round <= 3; round += 1) for (const id of ids) journal.append(id, [tx(round, { accountID: id })]);
    for (const id of ids) expect(journal.read(id).map(idOf)).toEqual(['1', '2', '3']);
    expect(() => journal.append('../escape', [tx(1)])).toThrow(/cannot name a file/);
    journal.close();
    expect(readdirSync(dir).filter((n) => n.endsWith('.ndjson'))).toHaveLength(3);
    // Other NDJSON files in the directory are not journals.
    writeFileSync(join(dir, 'accounts.ndjson'), 'not a journal');
    const reopened = FileJournal.open(dir);
    expect(reopened.recoveries).toEqual([]);
    expect(reopened.accountIds()).toEqual(ids);
    reopened.close();
  });

  it('keeps trailing stop level records among the transactions; the last transaction skips them', () => {
    const record: JournalEntry = {
      type: 'TRAILING_STOP_VALUE',
      orderID: '2',
      trailingStopValue: '1.10000',
      time: '2024-01-02T00:00:00.000000000Z',
    };
    const journal = FileJournal.open(dir);
    journal.append(A, [tx(1), tx(2), record]);
    journal.close();
    const reopened = FileJournal.open(dir);
    expect(reopened.recoveries).toEqual([]);
    expect(reopened.read(A).map(idOf)).toEqual(['1', '2', 'record 2']);
    expect(reopened.last(A)?.id).toBe('2');
    expect(unsealLine(readFileSync(reopened.path(A), 'utf8').split('\n')[2]!).text).toBe(JSON.stringify(record));
    reopened.close();
  });
});
