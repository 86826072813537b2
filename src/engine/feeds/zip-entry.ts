import { readExact } from './file-chunks.js';

/**
 * Finds the one file inside a zip through its central directory, so the entry can then be
 * streamed from disk. Local headers alone are unreliable (sizes may only follow the data, in a
 * data descriptor), which is why a front-to-back streaming unzip is not used. Zip64 fields are
 * read: LEAN's archives carry them even for small files.
 */
export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly dataOffset: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const ZIP64_EXTRA_ID = 0x0001;
const EOCD_MIN = 22;
const EOCD_MAX = EOCD_MIN + 0xffff; // the record ends with a comment of up to 64 KiB
const MARK32 = 0xffffffff;
const MARK16 = 0xffff;

interface Directory {
  readonly entries: number;
  readonly size: number;
  readonly offset: number;
}

interface CentralEntry {
  readonly name: string;
  readonly flags: number;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localOffset: number;
}

function fail(file: string, reason: string): never {
  throw new Error(`${file}: ${reason}`);
}

function readUInt64(buffer: Buffer, at: number, file: string): number {
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) fail(file, 'zip field too large');
  return Number(value);
}

function findDirectory(fd: number, fileSize: number, file: string): Directory {
  const tailStart = Math.max(0, fileSize - EOCD_MAX);
  const tail = readExact(fd, tailStart, fileSize - tailStart);
  let at = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
      at = i;
      break;
    }
  }
  if (at < 0) fail(file, 'not a zip archive (no end of central directory record)');
  const directory = { entries: tail.readUInt16LE(at + 10), size: tail.readUInt32LE(at + 12), offset: tail.readUInt32LE(at + 16) };
  if (directory.entries !== MARK16 && directory.size !== MARK32 && directory.offset !== MARK32) return directory;
  // Zip64: a locator just before the classic record points at the 64-bit one.
  const locator = readExact(fd, tailStart + at - 20, 20);
  if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR_SIGNATURE)
    fail(file, 'corrupt zip64 end of central directory locator');
  const record = readExact(fd, readUInt64(locator, 8, file), 56);
  if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) fail(file, 'corrupt zip64 end of central directory record');
  return { entries: readUInt64(record, 32, file), size: readUInt64(record, 40, file), offset: readUInt64(record, 48, file) };
}

/** Replaces 0xFFFFFFFF placeholders with the zip64 extra field's values, in the order the spec fixes. */
function applyZip64(extra: Buffer, sizes: { uncompressed: number; compressed: number; offset: number }, file: string): void {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === ZIP64_EXTRA_ID) {
      let q = p + 4;
      const take = (): number => {
        if (q + 8 > p + 4 + length) fail(file, 'corrupt zip64 extra field');
        const value = readUInt64(extra, q, file);
        q += 8;
        return value;
      };
      if (sizes.uncompressed === MARK32) sizes.uncompressed = take();
      if (sizes.compressed === MARK32) sizes.compressed = take();
      if (sizes.offset === MARK32) sizes.offset = take();
      return;
    }
    p += 4 + length;
  }
}

function readCentralDirectory(fd: number, directory: Directory, file: string): CentralEntry[] {
  const bytes = readExact(fd, directory.offset, directory.size);
  const entries: CentralEntry[] = [];
  let p = 0;
  for (let n = 0; n < directory.entries; n += 1) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL_SIGNATURE) fail(file, 'corrupt zip central directory');
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const sizes = { compressed: bytes.readUInt32LE(p + 20), uncompressed: bytes.readUInt32LE(p + 24), offset: bytes.readUInt32LE(p + 42) };
    applyZip64(bytes.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), sizes, file);
    entries.push({
      name: bytes.toString('utf8', p + 46, p + 46 + nameLength),
      flags: bytes.readUInt16LE(p + 8),
      method: bytes.readUInt16LE(p + 10),
      compressedSize: sizes.compressed,
      uncompressedSize: sizes.uncompressed,
      localOffset: sizes.offset,
    });
    p += 46 + nameLength + extraLength + bytes.readUInt16LE(p + 32);
  }
  return entries;
}

export function findSingleZipEntry(fd: number, fileSize: number, file: string): ZipEntry {
  const files = readCentralDirectory(fd, findDirectory(fd, fileSize, file), file).filter((entry) => !entry.name.endsWith('/'));
  const [entry, extra] = files;
  if (entry === undefined) return fail(file, 'zip archive holds no file');
  if (extra !== undefined)
    fail(file, `zip archive holds ${files.length} files (${files.map((f) => f.name).join(', ')}); expected exactly one`);
  if (entry.flags & 1) fail(file, `zip entry ${entry.name} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8)
    fail(file, `zip entry ${entry.name} uses compression method ${entry.method}; only stored (0) and deflate (8) are supported`);
  const local = readExact(fd, entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_SIGNATURE) fail(file, 'corrupt zip local header');
  return {
    name: entry.name,
    method: entry.method,
    dataOffset: entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
  };
}
