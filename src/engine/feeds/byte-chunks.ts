import { closeSync, fstatSync, openSync } from 'node:fs';
import { constants as zlibConstants, gunzipSync, inflateRawSync } from 'node:zlib';
import { Gunzip, Inflate } from 'fflate';
import { DEFAULT_CHUNK_SIZE, readExact, readFileRange } from './file-chunks.js';
import { findSingleZipEntry } from './zip-entry.js';

export type Compression = 'none' | 'gzip' | 'zip';

/** By magic bytes rather than by name, so a misnamed file is still read correctly. */
function sniff(head: Uint8Array): Compression {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) return 'zip';
  return 'none';
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs compressed chunks through a push-style fflate decompressor and yields what it produced
 * after each push; fflate calls back synchronously, so nothing is buffered beyond one chunk.
 */
function* decompress(
  input: Iterable<Uint8Array>,
  make: (sink: (data: Uint8Array) => void) => { push(chunk: Uint8Array, final: boolean): void },
  what: string,
): Generator<Uint8Array> {
  const out: Uint8Array[] = [];
  const decoder = make((data) => {
    if (data.length > 0) out.push(data);
  });
  const push = (chunk: Uint8Array, final: boolean): void => {
    try {
      decoder.push(chunk, final);
    } catch (error) {
      throw new Error(`${what}: corrupt compressed data (${errorText(error)})`, { cause: error });
    }
  };
  for (const chunk of input) {
    push(chunk, false);
    yield* out;
    out.length = 0;
  }
  push(new Uint8Array(0), true);
  yield* out;
}

/**
 * Compressed inputs up to this size are inflated in one call to native zlib, about six times
 * faster than fflate's JavaScript inflate; larger ones stream through fflate so memory stays
 * bounded by the chunk size. 16 MiB compressed is roughly 80 MiB of tick text.
 */
export const WHOLE_INFLATE_LIMIT = 16 << 20;

/** One native inflate of the whole input, handed out in chunkSize slices like the other paths. */
function* inflateWhole(input: Uint8Array, inflate: (data: Uint8Array) => Buffer, what: string, chunkSize: number): Generator<Uint8Array> {
  let data: Buffer;
  try {
    data = inflate(input);
  } catch (error) {
    throw new Error(`${what}: corrupt compressed data (${errorText(error)})`, { cause: error });
  }
  for (let at = 0; at < data.length; at += chunkSize) yield data.subarray(at, at + chunkSize);
}

/** The largest output buffer allocated at once: a directory saying more cannot make zlib allocate more up front. */
const WHOLE_OUTPUT_MAX = 128 << 20;

/**
 * zlib's output buffer for an entry the directory says inflates to `size` bytes: the whole of it
 * and one byte more, so the entry inflates into one buffer. With zlib's default 16 KiB chunks a
 * 2 MB entry went through some 120 buffers and a copy of them all into one (what that cost the
 * 13 LEAN zips: bench/RESULTS.md). One byte more, as zlib takes a full output buffer to mean that
 * more may follow and allocates another. A directory that says a wrong size still inflates (into
 * more buffers, or one too large) and is refused after by zipEntryChunks's check.
 */
function outputChunk(size: number): number {
  return Math.min(Math.max(size + 1, zlibConstants.Z_MIN_CHUNK), WHOLE_OUTPUT_MAX);
}

function inflateEntry(
  fd: number,
  offset: number,
  length: number,
  size: number,
  what: string,
  chunkSize: number,
  wholeLimit: number,
): Iterable<Uint8Array> {
  if (length <= wholeLimit)
    return inflateWhole(readExact(fd, offset, length), (data) => inflateRawSync(data, { chunkSize: outputChunk(size) }), what, chunkSize);
  return decompress(readFileRange(fd, offset, length, chunkSize), (sink) => new Inflate((chunk) => sink(chunk)), what);
}

function* zipEntryChunks(fd: number, size: number, file: string, chunkSize: number, wholeLimit: number): Generator<Uint8Array> {
  const entry = findSingleZipEntry(fd, size, file);
  const what = `${file} (${entry.name})`;
  const data =
    entry.method === 0
      ? readFileRange(fd, entry.dataOffset, entry.compressedSize, chunkSize)
      : inflateEntry(fd, entry.dataOffset, entry.compressedSize, entry.uncompressedSize, what, chunkSize, wholeLimit);
  let total = 0;
  for (const chunk of data) {
    total += chunk.length;
    yield chunk;
  }
  if (total !== entry.uncompressedSize)
    throw new Error(`${file} (${entry.name}): entry is ${total} bytes, directory says ${entry.uncompressedSize}`);
}

/**
 * A gzip file's size inflated as its trailer gives it: of its last member, modulo 4 GiB, so exact
 * for the usual one-member file and an estimate for any other. Undefined for a file too short to
 * have one.
 */
function gzipTrailerSize(fd: number, size: number): number | undefined {
  return size >= 18 ? readExact(fd, size - 4, 4).readUInt32LE(0) : undefined;
}

/**
 * How many bytes readByteChunks yields for the file, without decompressing it: its size; a zip
 * entry's size from the central directory; a gzip file's from its trailer (of the last member, so
 * an estimate for a multi-member file or one over 4 GiB). For progress displays.
 */
export function decompressedSize(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const compression = sniff(readExact(fd, 0, 4));
    if (compression === 'zip') return findSingleZipEntry(fd, size, file).uncompressedSize;
    if (compression === 'gzip') return gzipTrailerSize(fd, size) ?? size;
    return size;
  } finally {
    closeSync(fd);
  }
}

/**
 * The decompressed bytes of a plain, gzip (multi-member too) or single-file zip file, in chunks of
 * about `chunkSize`. The file is closed when iteration ends, also when the consumer stops early.
 * `wholeLimit` exists so tests can force the streaming path on small files.
 */
export function* readByteChunks(
  file: string,
  chunkSize: number = DEFAULT_CHUNK_SIZE,
  wholeLimit: number = WHOLE_INFLATE_LIMIT,
): Generator<Uint8Array> {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const compression = sniff(readExact(fd, 0, 4));
    if (compression === 'zip') {
      yield* zipEntryChunks(fd, size, file, chunkSize, wholeLimit);
    } else if (compression === 'gzip' && size <= wholeLimit) {
      // The trailer's size is zlib's buffer: too small or too large for several members, not wrong.
      const buffer = outputChunk(gzipTrailerSize(fd, size) ?? 0);
      yield* inflateWhole(readExact(fd, 0, size), (data) => gunzipSync(data, { chunkSize: buffer }), file, chunkSize);
    } else if (compression === 'gzip') {
      yield* decompress(readFileRange(fd, 0, size, chunkSize), (sink) => new Gunzip((chunk) => sink(chunk)), file);
    } else {
      yield* readFileRange(fd, 0, Number.POSITIVE_INFINITY, chunkSize);
    }
  } finally {
    closeSync(fd);
  }
}
