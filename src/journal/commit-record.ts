import { existsSync } from 'node:fs';
import { crcHex } from './batch-seal.js';
import { readWhole } from './file-io.js';

/**
 * The commit record of a journal, `<accountId>.commit`: the journal's committed length and the ID
 * of its last acknowledged transaction, each as 20 digits, then the CRC-32C of those 41 bytes:
 * `00000000000000012345 00000000000000000042 1a2b3c4d\n`, 51 bytes rewritten in place by one
 * positional write after each batch. It is the truth about what was acknowledged: a journal
 * shorter than it, or differing from it, is damaged. Older data dirs hold the length alone
 * (`%020d\n`); those are read, and rewritten in the new form at the next commit.
 */
export interface CommitRecord {
  readonly length: number;
  /** The last acknowledged transaction ID; undefined in an old record (length only). */
  readonly lastId: number | undefined;
}

export type CommitState =
  | { readonly kind: 'none' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'ok'; readonly record: CommitRecord }
  | { readonly kind: 'unreadable'; readonly text: string };

const WIDTH = 20;
const RECORD_RE = /^(\d{20}) (\d{20}) ([0-9a-f]{8})\n$/;
const OLD_RE = /^\s*(\d{1,20})\s*$/;

export function commitBytes(length: number, lastId: number): Buffer {
  const head = `${String(length).padStart(WIDTH, '0')} ${String(lastId).padStart(WIDTH, '0')}`;
  return Buffer.from(`${head} ${crcHex(Buffer.from(head, 'latin1'))}\n`, 'latin1');
}

export const COMMIT_RECORD_BYTES = commitBytes(0, 0).length;

function safe(text: string): number | undefined {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Parses commit file bytes: none (no file), empty (created, never written: nothing acknowledged yet), ok, or unreadable. */
export function parseCommit(bytes: Buffer | undefined): CommitState {
  if (bytes === undefined) return { kind: 'none' };
  if (bytes.length === 0) return { kind: 'empty' };
  const text = bytes.toString('latin1');
  const match = RECORD_RE.exec(text);
  if (match !== null) {
    const head = text.slice(0, 2 * WIDTH + 1);
    const length = safe(match[1] as string);
    const lastId = safe(match[2] as string);
    if (crcHex(Buffer.from(head, 'latin1')) === match[3] && length !== undefined && lastId !== undefined)
      return { kind: 'ok', record: { length, lastId } };
    return { kind: 'unreadable', text };
  }
  const old = OLD_RE.exec(text);
  const length = old === null ? undefined : safe(old[1] as string);
  if (length !== undefined) return { kind: 'ok', record: { length, lastId: undefined } };
  return { kind: 'unreadable', text };
}

export function readCommit(file: string): CommitState {
  return parseCommit(existsSync(file) ? readWhole(file) : undefined);
}
