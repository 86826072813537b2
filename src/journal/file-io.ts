import { closeSync, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';

// Low-level file access of the file journal: whole reads and writes, directory syncs, free names.

export function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const buf = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, buf, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    return done === size ? buf : buf.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a file from `from` to `to` (fewer if it is shorter). */
export function readRange(file: string, from: number, to: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from));
  if (buf.length === 0) return buf;
  const fd = openSync(file, 'r');
  try {
    let done = 0;
    while (done < buf.length) {
      const n = readSync(fd, buf, done, buf.length - done, from + done);
      if (n === 0) break;
      done += n;
    }
    return done === buf.length ? buf : buf.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

export function writeAll(fd: number, buf: Buffer, position?: number): void {
  let done = 0;
  while (done < buf.length) {
    const n =
      position === undefined ? writeSync(fd, buf, done, buf.length - done) : writeSync(fd, buf, done, buf.length - done, position + done);
    done += n;
  }
}

export function freeName(base: string): string {
  if (!existsSync(base)) return base;
  for (let n = 2; ; n += 1) if (!existsSync(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * fsync of a directory, so that a file just created in it (or renamed into it) survives a power
 * cut: fsync of the file alone does not make its directory entry durable (fsync(2), "Notes").
 */
export function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
