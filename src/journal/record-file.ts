import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** Texts are written in appends of about this many characters, and read in blocks of this many bytes. */
const WRITE_CHARS = 1 << 16;
const READ_BYTES = 1 << 16;

/**
 * Where an account pages out the orders or trades it no longer keeps in memory (the RecordStore of
 * account/id-table.ts): one text per record ID, in a file of its own, written in large appends and read back by position: what
 * stays in memory is one pending append and, per record ID, where its text is (12 bytes an ID).
 * The file holds every text put, so a record put twice takes its space twice; it is scratch space,
 * removed by `remove()`. A text's place is counted in characters as it is put, which is its place in
 * bytes while everything is ASCII (almost always: non-ASCII comes only from client extensions); an
 * append that is not ASCII has its texts measured one by one when written.
 */
export class RecordFile {
  private fd: number | undefined;
  /** Per ID, the byte offset of its text plus one (0: never put). */
  private offsets = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  /** Bytes on disk. */
  private flushed = 0;
  /** Texts put and not yet written, their IDs, and their length. */
  private pending: string[] = [];
  private pendingIds: number[] = [];
  private pendingChars = 0;
  /** The bytes last read, from `blockStart` on. */
  private block = Buffer.alloc(0);
  private blockStart = 0;
  private blockLength = 0;

  constructor(readonly file: string) {}

  put(id: number, text: string): void {
    if (!Number.isSafeInteger(id) || id < 0) throw new Error(`record ID must be a whole number of at least 0, got ${id}`);
    if (id >= this.offsets.length) this.grow(id);
    this.offsets[id] = this.flushed + this.pendingChars + 1;
    this.lengths[id] = text.length;
    this.pending.push(text);
    this.pendingIds.push(id);
    this.pendingChars += text.length;
    if (this.pendingChars >= WRITE_CHARS) this.flush();
  }

  get(id: number): string | undefined {
    if (!Number.isSafeInteger(id) || id < 0 || id >= this.offsets.length || this.offsets[id] === 0) return undefined;
    // Written first if it is pending, which may move its place (measure).
    if ((this.offsets[id] as number) - 1 >= this.flushed) this.flush();
    const offset = (this.offsets[id] as number) - 1;
    const length = this.lengths[id] as number;
    if (offset < this.blockStart || offset + length > this.blockStart + this.blockLength) this.readBlock(offset, length);
    return this.block.toString('utf8', offset - this.blockStart, offset - this.blockStart + length);
  }

  /**
   * Reads the bytes from `offset` on, at least `length` of them and up to a block, into the block
   * kept for the next reads: records paged out together are mostly read together (a trade table
   * written at the end of a run reads them in order), one read for many.
   */
  private readBlock(offset: number, length: number): void {
    const size = Math.min(Math.max(READ_BYTES, length), this.flushed - offset);
    if (this.block.length < size) this.block = Buffer.allocUnsafe(Math.max(size, READ_BYTES));
    let read = 0;
    while (read < size) {
      const n = readSync(this.fd as number, this.block, read, size - read, offset + read);
      if (n === 0) throw new Error(`${this.file}: the text at ${offset} is cut short`);
      read += n;
    }
    this.blockStart = offset;
    this.blockLength = size;
  }

  /** Closes the file and deletes it; the store is empty afterwards. */
  remove(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.file, { force: true });
    this.offsets = new Float64Array(1024);
    this.lengths = new Uint32Array(1024);
    this.flushed = 0;
    this.pending = [];
    this.pendingIds = [];
    this.pendingChars = 0;
    this.blockLength = 0;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.fd ??= openSync(this.file, 'w+');
    const text = this.pending.join('');
    const buffer = Buffer.from(text, 'utf8');
    if (buffer.length !== text.length) this.measure();
    let written = 0;
    while (written < buffer.length) written += writeSync(this.fd, buffer, written, buffer.length - written, this.flushed + written);
    this.flushed += buffer.length;
    this.pending = [];
    this.pendingIds = [];
    this.pendingChars = 0;
  }

  /** Places and lengths in bytes for the pending texts, one of which at least is not ASCII. */
  private measure(): void {
    let bytesAt = this.flushed;
    let charsAt = this.flushed;
    for (let i = 0; i < this.pending.length; i += 1) {
      const id = this.pendingIds[i] as number;
      const text = this.pending[i] as string;
      const bytes = Buffer.byteLength(text, 'utf8');
      // Only the last text put for an ID is read: an earlier one in the same append no longer has its place.
      if (this.offsets[id] === charsAt + 1) {
        this.offsets[id] = bytesAt + 1;
        this.lengths[id] = bytes;
      }
      bytesAt += bytes;
      charsAt += text.length;
    }
  }

  private grow(id: number): void {
    let size = this.offsets.length;
    while (size <= id) size *= 2;
    const offsets = new Float64Array(size);
    offsets.set(this.offsets);
    const lengths = new Uint32Array(size);
    lengths.set(this.lengths);
    this.offsets = offsets;
    this.lengths = lengths;
  }
}

/**
 * The RecordFiles of a run or a server, one per account and kind, made as the accounts ask for them
 * (the `store` of EngineConfig.recordsInMemory) and all removed at once.
 */
export class RecordFiles {
  private readonly files: RecordFile[] = [];

  constructor(private readonly pathOf: (accountId: string, kind: 'orders' | 'trades') => string) {}

  readonly store = (accountId: string, kind: 'orders' | 'trades'): RecordFile => {
    const file = new RecordFile(this.pathOf(accountId, kind));
    this.files.push(file);
    return file;
  };

  remove(): void {
    for (const file of this.files.splice(0)) file.remove();
  }
}
