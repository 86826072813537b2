import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { TransactionsLostRecord } from '../domain/journal-entry.js';
import type { Transaction } from '../domain/transactions.js';
import { sealBatch } from './batch-seal.js';
import { commitBytes, COMMIT_RECORD_BYTES, readCommit } from './commit-record.js';
import type { JournalDamage, JournalRecovery } from './file-errors.js';
import { freeName, readRange, readWhole, syncDir, writeAll } from './file-io.js';
import { serializeEntry } from './journal.js';
import { planRecovery, soundPlan, type RecoveryPlan } from './recovery-plan.js';
import { lastTransactionIn, sealedThrough } from './sound-file.js';

// Applying a recovery plan to one journal file (the decision is recovery-plan.ts).

export interface RecoveredFile {
  readonly size: number;
  readonly last: Transaction | undefined;
  /** The ID of the last transaction acknowledged, lost ones included. */
  readonly lastId: number;
}

export interface PlannedFile {
  readonly accountId: string;
  readonly file: string;
  readonly commitFile: string;
  /** The file's length, and its bytes past what the plan keeps. */
  readonly size: number;
  readonly cut: Buffer;
  readonly plan: RecoveryPlan;
  readonly commitWritten: boolean;
}

const TMP = '.tmp';

/** Reads a journal and its commit record and decides what to do; changes nothing. */
export function planFile(accountId: string, file: string, commitFile: string): PlannedFile {
  const commit = readCommit(commitFile);
  const current = commit.kind === 'ok' ? commit.record : undefined;
  const planned = (size: number, cut: Buffer, plan: RecoveryPlan): PlannedFile => {
    const commitWritten = current !== undefined && current.length === plan.keep && current.lastId !== undefined;
    return { accountId, file, commitFile, size, cut, plan, commitWritten };
  };
  // A journal deleted while its commit record stayed is a journal emptied: the record says what was acknowledged.
  const size = existsSync(file) ? statSync(file).size : 0;
  // The usual case, a journal sound up to its commit record, is checked as read: whole, a long
  // journal took its length in memory again (planRecovery decides the same for it).
  if (current !== undefined && current.length <= size && sealedThrough(file, current.length))
    return planned(size, readRange(file, current.length, size), soundPlan(current.length, lastTransactionIn(file, current.length)));
  const buf = size === 0 ? Buffer.alloc(0) : readWhole(file);
  const plan = planRecovery(buf, commit);
  return planned(buf.length, buf.subarray(plan.keep), plan);
}

export function damageOf(p: PlannedFile): JournalDamage | undefined {
  const problem = p.plan.problem;
  return problem === undefined ? undefined : { accountId: p.accountId, file: p.file, what: problem.what, detail: problem.detail };
}

/**
 * Writes bytes to a new file under a free name: first to `<name>.tmp`, synced, then renamed, so a
 * crash never leaves a 0-byte or half-written file under the final name (a stale .tmp is removed
 * at the next open: the bytes it held are still in the journal, which is cut only after the rename).
 */
function saveAside(base: string, bytes: Buffer, fsync: boolean): string {
  const target = freeName(base);
  const tmp = `${target}${TMP}`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeAll(fd, bytes);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, target);
  if (fsync) syncDir(dirname(target));
  return target;
}

/** Removes the temporary files of a save-aside cut short by a crash. */
export function removeStaleTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) if (/\.(?:torn|damaged)-\d+(?:-\d+)?\.tmp$/.test(name)) unlinkSync(join(dir, name));
}

function lostRecord(p: PlannedFile): TransactionsLostRecord | undefined {
  const lostTo = p.plan.problem?.lostTo;
  if (lostTo === undefined) return undefined;
  const from = Number(p.plan.last?.id ?? 0) + 1;
  if (lostTo < from) return undefined;
  return {
    type: 'TRANSACTIONS_LOST',
    fromID: String(from),
    toID: String(lostTo),
    time: p.plan.last?.time ?? '1970-01-01T00:00:00.000000000Z',
  };
}

/** Cuts the file to the plan (saving what goes), records a loss the operator accepted, and rewrites the commit record to the truth. */
export function applyPlan(p: PlannedFile, fsync: boolean, recoveries: JournalRecovery[]): RecoveredFile {
  const { size: fileSize, cut, plan, file } = p;
  let movedTo: string | undefined;
  if (plan.keep < fileSize) {
    const suffix = plan.problem === undefined ? 'torn' : 'damaged';
    // The cut bytes are saved before the journal is cut: a crash here loses nothing.
    movedTo = saveAside(`${file}.${suffix}-${plan.keep}`, cut, fsync);
  }
  const lost = lostRecord(p);
  const extra = lost === undefined ? Buffer.alloc(0) : Buffer.from(sealBatch([serializeEntry(lost)]), 'utf8');
  const size = plan.keep + extra.length;
  const lastId = lost !== undefined ? Number(lost.toID) : Number(plan.last?.id ?? 0);
  if (plan.keep < fileSize || extra.length > 0) {
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
    try {
      ftruncateSync(fd, plan.keep);
      if (extra.length > 0) writeAll(fd, extra, plan.keep);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  if (!p.commitWritten || extra.length > 0) {
    const created = !existsSync(p.commitFile);
    const fd = openSync(p.commitFile, constants.O_RDWR | constants.O_CREAT, 0o644);
    try {
      writeAll(fd, commitBytes(size, lastId), 0);
      ftruncateSync(fd, COMMIT_RECORD_BYTES);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (created && fsync) syncDir(dirname(p.commitFile));
  }
  if (movedTo !== undefined || plan.problem !== undefined) {
    recoveries.push({
      accountId: p.accountId,
      file,
      offset: plan.keep,
      bytes: fileSize - plan.keep,
      movedTo,
      reason: plan.reason || 'bytes after the last complete transaction',
      ...(plan.problem === undefined
        ? {}
        : { loss: { detail: `${plan.problem.what}: ${plan.problem.detail}`, fromID: lost?.fromID, toID: lost?.toID } }),
    });
  }
  return { size, last: plan.last, lastId };
}
