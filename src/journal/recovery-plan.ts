import type { Transaction } from '../domain/transactions.js';
import type { CommitState } from './commit-record.js';
import { highestId, lastTransaction, scanJournal } from './sound-prefix.js';

/**
 * What open() does with one journal file, decided from its bytes and its commit record alone.
 * The commit record is the truth about what was acknowledged: bytes past it were never
 * acknowledged (a write cut by a killed process) and are moved aside; a file that holds less than
 * it, or differs from it (a checksum that fails), lost acknowledged transactions: a `problem`,
 * which refuses the start unless the operator accepts the loss.
 */
export interface RecoveryPlan {
  /** Bytes of the file to keep. */
  readonly keep: number;
  /** The last transaction kept. */
  readonly last: Transaction | undefined;
  /** Why the bytes past `keep` go (when there are any). */
  readonly reason: string;
  readonly problem: JournalProblem | undefined;
}

export interface JournalProblem {
  readonly what: 'truncated' | 'damaged' | 'commit record unreadable';
  /** For the operator: the expected and the found length and last transaction ID. */
  readonly detail: string;
  /** The highest transaction ID acknowledged beyond the kept ones (from the commit record or the cut bytes), if any. */
  readonly lostTo: number | undefined;
}

function idText(id: number | undefined): string {
  return id === undefined ? 'unknown (commit record of an older version)' : String(id);
}

function lostBeyond(buf: Buffer, keep: number, acknowledged: number | undefined): number | undefined {
  const kept = highestId(buf.subarray(0, keep), 0);
  const highest = Math.max(acknowledged ?? 0, highestId(buf, keep));
  return highest > kept ? highest : undefined;
}

function legacyPlan(buf: Buffer): RecoveryPlan {
  const scan = scanJournal(buf);
  if (scan.damage === undefined) return { keep: scan.end, last: lastTransaction(buf, scan.end), reason: scan.tail, problem: undefined };
  // Without a commit record an unparsable last line is a cut write, as before; anywhere else it is damage.
  const after = buf.indexOf(0x0a, scan.damage.offset);
  const isLastLine = after === -1 || after === buf.length - 1;
  if (isLastLine && !scan.damage.reason.includes('CRC'))
    return {
      keep: scan.damage.offset,
      last: lastTransaction(buf, scan.damage.offset),
      reason: 'an unparsable last line',
      problem: undefined,
    };
  return {
    keep: scan.damage.offset,
    last: lastTransaction(buf, scan.damage.offset),
    reason: scan.damage.reason,
    problem: {
      what: 'damaged',
      detail: `${scan.damage.reason} at byte ${scan.damage.offset} (the file has ${buf.length} bytes)`,
      lostTo: lostBeyond(buf, scan.damage.offset, undefined),
    },
  };
}

export function planRecovery(buf: Buffer, commit: CommitState): RecoveryPlan {
  if (commit.kind === 'none') return legacyPlan(buf);
  if (commit.kind === 'empty')
    return { keep: 0, last: undefined, reason: 'a write before the first commit (never acknowledged)', problem: undefined };
  if (commit.kind === 'unreadable') {
    const scan = scanJournal(buf);
    return {
      keep: scan.end,
      last: lastTransaction(buf, scan.end),
      reason: 'after the last sound batch (the commit record is unreadable)',
      problem: {
        what: 'commit record unreadable',
        detail: `the commit record ${JSON.stringify(commit.text.slice(0, 60))} is unreadable; the journal has ${buf.length} bytes, ${scan.end} of them sound`,
        lostTo: lostBeyond(buf, scan.end, undefined),
      },
    };
  }
  const { length, lastId } = commit.record;
  const expected = `expected ${length} bytes up to transaction ${idText(lastId)}`;
  if (length > buf.length) {
    const scan = scanJournal(buf);
    const last = lastTransaction(buf, scan.end);
    return {
      keep: scan.end,
      last,
      reason: 'a cut line after the last complete batch',
      problem: {
        what: 'truncated',
        detail: `${expected}, found ${buf.length} bytes up to transaction ${last?.id ?? 'none'}`,
        lostTo: lostBeyond(buf, scan.end, lastId),
      },
    };
  }
  const scan = scanJournal(buf, length);
  if (scan.damage !== undefined || scan.end !== length) {
    const why = scan.damage?.reason ?? `the commit record ends inside a batch (the last sound batch ends at byte ${scan.end})`;
    const last = lastTransaction(buf, scan.end);
    return {
      keep: scan.end,
      last,
      reason: why,
      problem: {
        what: 'damaged',
        detail: `${expected}; ${why}${scan.damage === undefined ? '' : ` at byte ${scan.damage.offset}`}, so only ${scan.end} bytes up to transaction ${last?.id ?? 'none'} are sound`,
        lostTo: lostBeyond(buf, scan.end, lastId),
      },
    };
  }
  return soundPlan(length, lastTransaction(buf, length));
}

/** The plan of a journal sound up to its commit record's length: keep that, cut any unacknowledged write after it. */
export function soundPlan(length: number, last: Transaction | undefined): RecoveryPlan {
  return { keep: length, last, reason: 'an unfinished write after the last committed batch', problem: undefined };
}
