import { isAscii } from 'node:buffer';
import { readByteChunks } from './byte-chunks.js';
import { DEFAULT_CHUNK_SIZE } from './file-chunks.js';

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/**
 * UTF-8 text. Tick files are nearly always plain ASCII, which latin1 decodes to the same string
 * about twice as fast as the UTF-8 decoder (isAscii is one vectorised pass); anything else is
 * decoded as UTF-8.
 */
function decode(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isAscii(buffer) ? buffer.toString('latin1') : buffer.toString('utf8');
}

/**
 * The bytes of a file as blocks that each hold whole lines: every block but the file's last ends
 * with '\n'. Blocks are cut at the last newline byte of a chunk (0x0A never occurs inside a UTF-8
 * sequence), so a multi-byte character is never split. Most blocks are views of the chunks read;
 * a line that spans two chunks is copied into a small block of its own.
 */
export function* readByteBlocks(file: string, chunkSize: number = DEFAULT_CHUNK_SIZE): Generator<Uint8Array> {
  let carry: Uint8Array[] = [];
  for (const bytes of readByteChunks(file, chunkSize)) {
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carry.push(bytes);
      continue;
    }
    let from = 0;
    if (carry.length > 0) {
      // The pending partial line plus this chunk's first line: one small block of its own.
      const firstNewline = bytes.indexOf(NEWLINE);
      carry.push(bytes.subarray(0, firstNewline + 1));
      yield Buffer.concat(carry);
      carry = [];
      from = firstNewline + 1;
    }
    if (from <= lastNewline) yield bytes.subarray(from, lastNewline + 1);
    if (lastNewline + 1 < bytes.length) carry.push(bytes.subarray(lastNewline + 1));
  }
  if (carry.length > 0) yield Buffer.concat(carry);
}

/**
 * The text of a file as blocks that each hold whole lines (readByteBlocks decoded). A leading
 * byte-order mark is dropped. Callers scan blocks with indexOf instead of allocating a string per
 * line.
 */
export function* readTextBlocks(file: string, chunkSize: number = DEFAULT_CHUNK_SIZE): Generator<string> {
  let first = true;
  for (const bytes of readByteBlocks(file, chunkSize)) {
    const text = decode(bytes);
    if (first && text.charCodeAt(0) === 0xfeff) yield text.slice(1);
    else yield text;
    first = false;
  }
}

/** Where a line ends when its '\n' is at `newline`: a '\r' before it belongs to the terminator. */
export function lineEnd(text: string, start: number, newline: number): number {
  return newline > start && text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline;
}

/** Every line of a file as a string, '\r\n' or '\n' terminated, last line with or without one. */
export function* readLines(file: string, chunkSize: number = DEFAULT_CHUNK_SIZE): Generator<string> {
  for (const text of readTextBlocks(file, chunkSize)) {
    let pos = 0;
    while (pos < text.length) {
      let newline = text.indexOf('\n', pos);
      if (newline < 0) newline = text.length;
      yield text.slice(pos, lineEnd(text, pos, newline));
      pos = newline + 1;
    }
  }
}
