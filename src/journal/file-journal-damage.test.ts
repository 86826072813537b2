import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTransaction, type JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { commitBytes, parseCommit } from './commit-record.js';
import { JournalDamagedError } from './file-errors.js';
import { FileJournal } from './file-journal.js';
import { transferFunds } from './testing/transfer-funds.js';

// A journal that holds less than its commit record, or other bytes, lost acknowledged transactions.

const A = '101-004-1000000-001';

const tx = (id: number): Transaction => transferFunds(A, id);

const idOf = (e: JournalEntry): string => (isTransaction(e) ? e.id : e.type);

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-damage-'));
  file = join(dir, `${A}.ndjson`);
  const journal = FileJournal.open(dir);
  for (let id = 1; id <= 5; id += 1) journal.append(A, [tx(id)]);
  journal.close();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Offsets just past each line of the journal file. */
function lineEnds(): number[] {
  const buf = readFileSync(file);
  const ends: number[] = [];
  for (let at = buf.indexOf(0x0a); at !== -1; at = buf.indexOf(0x0a, at + 1)) ends.push(at + 1);
  return ends;
}

function refusal(): JournalDamagedError {
  try {
    FileJournal.open(dir).close();
  } catch (error) {
    if (error instanceof JournalDamagedError) return error;
    throw error;
  }
  throw new Error('open() accepted a damaged journal');
}

describe('a journal shorter than its commit record', () => {
  it('cut at a line boundary: refused, naming the file, the expected and the found length and ID; nothing changes', () => {
    const ends = lineEnds();
    truncateSync(file, ends[1]!);
    const before = readdirSync(dir).sort();
    const error = refusal();
    expect(error.message).toBe(
      `journal ${file} is truncated: expected ${ends[4]} bytes up to transaction 5, found ${ends[1]} bytes up to transaction 2`,
    );
    expect(error.damages).toMatchObject([{ accountId: A, what: 'truncated' }]);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readFileSync(file).length).toBe(ends[1]);
  });

  it('cut mid-line: refused, not taken for an unacknowledged torn write', () => {
    const ends = lineEnds();
    truncateSync(file, ends[2]! + 10);
    expect(refusal().message).toMatch(/is truncated: expected \d+ bytes up to transaction 5, found \d+ bytes up to transaction 3$/);
  });

  it('emptied: refused, not restarted as a new account', () => {
    truncateSync(file, 0);
    expect(refusal().message).toMatch(/found 0 bytes up to transaction none$/);
  });
});

describe('a changed byte', () => {
  it('inside a committed batch: found by its CRC-32C and refused, never replayed', () => {
    const buf = readFileSync(file);
    const at = buf.indexOf('"1.0000"', lineEnds()[2]!) + 1;
    buf[at] = '7'.charCodeAt(0);
    writeFileSync(file, buf);
    expect(refusal().message).toMatch(
      /is damaged: .*the batch ending at line 4 fails its CRC-32C \(a changed byte\) at byte \d+, so only \d+ bytes up to transaction 3 are sound$/,
    );
  });

  it('in the commit record: refused', () => {
    const commit = join(dir, `${A}.commit`);
    const bytes = readFileSync(commit);
    bytes[3] = bytes[3] === 0x30 ? 0x31 : 0x30;
    writeFileSync(commit, bytes);
    expect(refusal().damages[0]?.what).toBe('commit record unreadable');
  });
});

describe('recoverTruncated', () => {
  it('accepts the loss, moves the rest aside, records it, and keeps the lost IDs taken', () => {
    const ends = lineEnds();
    truncateSync(file, ends[2]! + 10);
    const journal = FileJournal.open(dir, { recoverTruncated: true });
    expect(journal.recoveries).toHaveLength(1);
    const r = journal.recoveries[0]!;
    expect(r.loss).toMatchObject({ fromID: '4', toID: '5' });
    expect(r.loss?.detail).toMatch(/^truncated: expected/);
    expect(r.movedTo).toBe(`${file}.damaged-${ends[2]}`);
    expect(readFileSync(r.movedTo!).length).toBe(10);
    expect(journal.read(A).map(idOf)).toEqual(['1', '2', '3', 'TRANSACTIONS_LOST']);
    expect(journal.last(A)?.id).toBe('3');
    journal.append(A, [tx(6)]);
    journal.close();
    // The commit record was rewritten to the truth: the next open is clean.
    const again = FileJournal.open(dir);
    expect(again.recoveries).toEqual([]);
    expect(again.read(A).map(idOf)).toEqual(['1', '2', '3', 'TRANSACTIONS_LOST', '6']);
    again.close();
  });

  it('an emptied journal keeps only the lost record: IDs 1-5 are never given out again', () => {
    truncateSync(file, 0);
    const journal = FileJournal.open(dir, { recoverTruncated: true });
    expect(journal.recoveries[0]).toMatchObject({ movedTo: undefined, bytes: 0, loss: { fromID: '1', toID: '5' } });
    expect(journal.read(A)).toEqual([{ type: 'TRANSACTIONS_LOST', fromID: '1', toID: '5', time: '1970-01-01T00:00:00.000000000Z' }]);
    journal.close();
  });
});

describe('formats', () => {
  it('never leaves a 0-byte or temporary file when a torn tail is moved aside', () => {
    writeFileSync(`${file}.torn-9.tmp`, '');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"ORD`);
    const journal = FileJournal.open(dir);
    journal.close();
    const names = readdirSync(dir);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    for (const n of names) expect(readFileSync(join(dir, n)).length).toBeGreaterThan(0);
  });

  it('reads a journal of an older version (no seals, length-only commit record) and seals what it appends', () => {
    const old = `${JSON.stringify(tx(1))}\n${JSON.stringify(tx(2))}\n`;
    writeFileSync(file, old);
    writeFileSync(join(dir, `${A}.commit`), `${String(old.length).padStart(20, '0')}\n`);
    const journal = FileJournal.open(dir);
    expect(journal.recoveries).toEqual([]);
    journal.append(A, [tx(3)]);
    journal.close();
    const reopened = FileJournal.open(dir);
    expect(reopened.read(A).map(idOf)).toEqual(['1', '2', '3']);
    expect(reopened.text(A)).toBe(`${old}${JSON.stringify(tx(3))}\n`);
    reopened.close();
    expect(parseCommit(readFileSync(join(dir, `${A}.commit`)))).toEqual({
      kind: 'ok',
      record: { length: readFileSync(file).length, lastId: 3 },
    });
  });

  it('a commit record round-trips and a created but unwritten one means nothing was acknowledged', () => {
    expect(parseCommit(commitBytes(12345, 42))).toEqual({ kind: 'ok', record: { length: 12345, lastId: 42 } });
    expect(parseCommit(Buffer.alloc(0))).toEqual({ kind: 'empty' });
    expect(parseCommit(undefined)).toEqual({ kind: 'none' });
    writeFileSync(join(dir, `${A}.commit`), '');
    const journal = FileJournal.open(dir);
    expect(journal.recoveries[0]?.reason).toMatch(/before the first commit/);
    expect(journal.accountIds()).toEqual([]);
    journal.close();
    expect(existsSync(`${file}.torn-0`)).toBe(true);
  });
});

describe('a deleted journal', () => {
  it('whose commit record stayed: refused like an emptied one; recoverable with the IDs kept taken', () => {
    rmSync(file);
    expect(refusal().message).toMatch(/is truncated: expected \d+ bytes up to transaction 5, found 0 bytes up to transaction none$/);
    const journal = FileJournal.open(dir, { recoverTruncated: true });
    expect(journal.read(A).map(idOf)).toEqual(['TRANSACTIONS_LOST']);
    expect(journal.accountIds()).toEqual([A]);
    journal.close();
  });
});
