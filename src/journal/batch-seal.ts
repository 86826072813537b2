import { crc32c, crc32cUpdate } from './crc32c.js';

/**
 * The seal of a journal batch on disk: its last line ends with one more key,
 * `,"batch":{"lines":<n>,"crc32c":"<8 hex>"}}`, where n is the batch's line count and the CRC-32C
 * (Castagnoli, as iSCSI and ext4 use) covers the batch's lines exactly as exported, each with its
 * newline: the bytes MemoryJournal holds and GET /sim/journal prints. So the file stays one JSON
 * object per line (readable with jq, grep, wc -l), a flipped byte anywhere in a batch is found,
 * and stripping the key gives the exported bytes back. A transaction never has a `batch` key
 * (v20's is `batchID`), and inside a JSON string every quote is escaped, so the pattern at the end
 * of a line is only ever a seal.
 */
const SEAL_RE = /,"batch":\{"lines":([1-9]\d{0,8}),"crc32c":"([0-9a-f]{8})"\}\}$/;

export interface Seal {
  readonly lines: number;
  readonly crc: string;
}

/** CRC-32C of bytes as 8 lower-case hex digits. */
export function crcHex(bytes: Uint8Array): string {
  return crc32c(bytes).toString(16).padStart(8, '0');
}

/** The exported text of a batch (lines with newlines) as sealed on disk. */
export function sealBatch(lines: readonly string[]): string {
  const crc = crcHex(Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
  const last = lines.length - 1;
  let text = '';
  for (let i = 0; i < last; i += 1) text += `${lines[i]}\n`;
  const lastLine = lines[last] as string;
  text += `${lastLine.slice(0, -1)},"batch":{"lines":${lines.length},"crc32c":"${crc}"}}\n`;
  return text;
}

/** A line as exported (its seal removed) and the seal, if it ends a sealed batch. */
export function unsealLine(line: string): { text: string; seal: Seal | undefined } {
  const match = SEAL_RE.exec(line);
  if (match === null) return { text: line, seal: undefined };
  return { text: `${line.slice(0, match.index)}}`, seal: { lines: Number(match[1]), crc: match[2] as string } };
}

/** Longest seal text: `,"batch":{"lines":<9 digits>,"crc32c":"<8 hex>"}}` is 50 bytes. */
const SEAL_TAIL_BYTES = 64;
const CLOSE_LINE = Buffer.from('}\n', 'latin1');

/**
 * The seal of the line buf[start, nl) (nl at its newline), read from its last bytes only, and the
 * CRC-32C the batch from `batchStart` must have: the exported bytes, the seal replaced by `}`.
 * The seal is ASCII, so its length in characters is its length in bytes.
 */
export function sealOfLine(buf: Buffer, start: number, nl: number): (Seal & { readonly exportedEnd: number }) | undefined {
  const tail = buf.toString('latin1', Math.max(start, nl - SEAL_TAIL_BYTES), nl);
  const match = SEAL_RE.exec(tail);
  if (match === null) return undefined;
  return { lines: Number(match[1]), crc: match[2] as string, exportedEnd: nl - (tail.length - match.index) };
}

/** CRC-32C of a sealed batch as exported: buf[batchStart, exportedEnd) and the closing `}` and newline. */
export function exportedCrc(buf: Buffer, batchStart: number, exportedEnd: number): string {
  return closedBatchCrc(0, buf.subarray(batchStart, exportedEnd));
}

/**
 * The seal's CRC-32C of a batch read a line at a time: `running` is the CRC-32C of the lines
 * before its last (each with its newline), `exported` the last line up to its seal.
 */
export function closedBatchCrc(running: number, exported: Uint8Array): string {
  return crc32cUpdate(crc32cUpdate(running, exported), CLOSE_LINE).toString(16).padStart(8, '0');
}
