import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** Records per write and per read: 8,192 records of a few doubles, some 200 KB. */
export const SPILL_CHUNK_RECORDS = 8192;

/**
 * A run's series of fixed-width records of doubles (time, NAV, balance, kind; or instrument, time,
 * mid) kept in a file instead of arrays: appended in chunks while the run goes on, read back in
 * chunks afterwards, in the same order and bits (Float64, so nothing is rounded). Memory: one chunk.
 */
export class Float64Spill {
  private readonly fd: number;
  private readonly buffer: Float64Array;
  private filled = 0;
  private records = 0;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly width: number,
  ) {
    this.fd = openSync(file, 'w+');
    this.buffer = new Float64Array(SPILL_CHUNK_RECORDS * width);
  }

  get length(): number {
    return this.records;
  }

  /** Records appended and not yet written (fewer than one chunk). */
  get pending(): number {
    return this.filled;
  }

  /** Appends one record of `width` values. */
  push(a: number, b: number, c = 0, d = 0): void {
    const buffer = this.buffer;
    let at = this.filled * this.width;
    buffer[at++] = a;
    buffer[at++] = b;
    if (this.width > 2) buffer[at++] = c;
    if (this.width > 3) buffer[at] = d;
    this.filled += 1;
    this.records += 1;
    if (this.filled === SPILL_CHUNK_RECORDS) this.flush();
  }

  private flush(): void {
    if (this.filled === 0) return;
    const bytes = this.filled * this.width * 8;
    writeSync(this.fd, new Uint8Array(this.buffer.buffer, 0, bytes), 0, bytes, (this.records - this.filled) * this.width * 8);
    this.filled = 0;
  }

  /** Calls `f` with every record in order: the chunk read and the record's offset in it. */
  forEach(f: (chunk: Float64Array, at: number) => void): void {
    this.flush();
    const chunk = new Float64Array(SPILL_CHUNK_RECORDS * this.width);
    const bytes = new Uint8Array(chunk.buffer);
    const recordBytes = this.width * 8;
    for (let first = 0; first < this.records; first += SPILL_CHUNK_RECORDS) {
      const count = Math.min(SPILL_CHUNK_RECORDS, this.records - first);
      let read = 0;
      while (read < count * recordBytes) {
        const n = readSync(this.fd, bytes, read, count * recordBytes - read, first * recordBytes + read);
        if (n === 0) throw new Error(`${this.file}: ended before record ${first + count}`);
        read += n;
      }
      for (let i = 0; i < count; i += 1) f(chunk, i * this.width);
    }
  }

  /** Closes and deletes the file. */
  remove(): void {
    if (!this.closed) {
      this.closed = true;
      closeSync(this.fd);
    }
    rmSync(this.file, { force: true });
  }
}
