import fc from 'fast-check';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { readCommit } from './commit-record.js';
import { readWhole } from './file-io.js';
import { FileJournal } from './file-journal.js';
import { planFile } from './recover-file.js';
import { planRecovery } from './recovery-plan.js';
import { lastTransactionIn, sealedThrough } from './sound-file.js';
import { lastTransaction, scanJournal } from './sound-prefix.js';
import { transferFunds } from './testing/transfer-funds.js';

// The chunked reading of a sound journal (sound-file.ts) against the whole-file scan it stands in
// for (sound-prefix.ts, recovery-plan.ts): on journals of random batches, sound or changed after.

const A = '101-004-1000000-001';
const root = mkdtempSync(join(tmpdir(), 'v20sim-sound-file-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let runs = 0;

const tx = (id: number, comment: string): Transaction => transferFunds(A, id, comment);

const record = (orderID: number): JournalEntry =>
  ({
    type: 'TRAILING_STOP_VALUE',
    orderID: String(orderID),
    trailingStopValue: '1.10000',
    time: '2024-01-02T00:00:00.000000000Z',
  }) as JournalEntry;

/** Batches of one to four transactions (comments of any length, non-ASCII too), some ending with a record. */
const batchesArb = fc.array(
  fc.record({ comments: fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 4 }), records: fc.nat(2) }),
  { minLength: 1, maxLength: 12 },
);

/** What is done to the file after it is written: nothing, a byte changed, a cut, a torn write after it, the commit record lost. */
const changeArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('torn' as const), text: fc.string({ maxLength: 30 }) }),
  fc.constant({ kind: 'no commit record' as const }),
);
type Change = typeof changeArb extends fc.Arbitrary<infer T> ? T : never;

function writeJournal(batches: { comments: string[]; records: number }[]): { dir: string; file: string; commit: string } {
  const dir = join(root, `j${(runs += 1)}`);
  const journal = FileJournal.open(dir);
  let id = 0;
  for (const { comments, records } of batches) {
    const entries: JournalEntry[] = comments.map((c) => tx((id += 1), c));
    for (let r = 0; r < records; r += 1) entries.push(record(id));
    journal.append(A, entries);
  }
  journal.close();
  return { dir, file: join(dir, `${A}.ndjson`), commit: join(dir, `${A}.commit`) };
}

/** Does `change` to a journal just written; gives its length before. */
function changeFile(file: string, commit: string, change: Change): number {
  const buf = readWhole(file);
  const length = buf.length;
  if (change.kind === 'flip' && length > 0) {
    const at = Math.min(length - 1, Math.floor(change.at * length));
    buf[at] = (buf[at] as number) ^ change.xor;
    writeFileSync(file, buf);
  } else if (change.kind === 'cut') truncateSync(file, Math.floor(change.at * length));
  else if (change.kind === 'torn') appendFileSync(file, change.text);
  else if (change.kind === 'no commit record') rmSync(commit);
  return length;
}

/** Offsets just past each line. */
function lineEnds(buf: Buffer): number[] {
  const ends: number[] = [];
  for (let at = buf.indexOf(0x0a); at !== -1; at = buf.indexOf(0x0a, at + 1)) ends.push(at + 1);
  return ends;
}

describe('a sound journal read in chunks (property)', () => {
  it('is found sound exactly when the whole-file scan finds it so, whatever the chunk size', () => {
    fc.assert(
      fc.property(batchesArb, changeArb, fc.integer({ min: 1, max: 300 }), (batches, change, chunk) => {
        const { file, commit } = writeJournal(batches);
        const length = changeFile(file, commit, change);
        const buf = readWhole(file);
        const upTo = Math.min(length, buf.length);
        const scan = scanJournal(buf, upTo);
        expect(sealedThrough(file, upTo, chunk)).toBe(scan.damage === undefined && scan.end === upTo);
        // The last transaction before any line end, read back in windows from `chunk` bytes, is the whole scan's.
        for (const end of [0, ...lineEnds(buf)]) expect(lastTransactionIn(file, end, chunk)).toEqual(lastTransaction(buf, end));
      }),
      { numRuns: 150 },
    );
  });

  it('plans every journal as the whole-file recovery does: the same plan, length and bytes to cut', () => {
    fc.assert(
      fc.property(batchesArb, changeArb, (batches, change) => {
        const { file, commit } = writeJournal(batches);
        changeFile(file, commit, change);
        const buf = readWhole(file);
        const plan = planRecovery(buf, readCommit(commit));
        const planned = planFile(A, file, commit);
        expect(planned.plan).toEqual(plan);
        expect(planned.size).toBe(buf.length);
        expect(planned.cut.equals(buf.subarray(plan.keep))).toBe(true);
        expect(readFileSync(file).equals(buf)).toBe(true); // planning changes nothing
      }),
      { numRuns: 150 },
    );
  });
});
