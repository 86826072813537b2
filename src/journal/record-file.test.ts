import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordFile } from './record-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-record-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('RecordFile', () => {
  it('reads back each text put, pending or written, the latest for an ID put twice', () => {
    const file = new RecordFile(path.join(dir, 'a'));
    const texts = new Map<number, string>();
    // Enough text to be written in several appends, ASCII and not (JSON texts: a lone surrogate
    // comes escaped), an append of each kind.
    for (let id = 1; id <= 3000; id += 1) {
      const text = JSON.stringify({ id, c: `${(id > 1500 ? 'é😀\ud800x' : '').repeat(id % 7)}${'a'.repeat(id % 50)}` });
      file.put(id * 3, text);
      texts.set(id * 3, text);
      if (id % 500 === 0) expect(file.get(id * 3)).toBe(text);
    }
    file.put(9, 'again');
    texts.set(9, 'again');
    for (const [id, text] of texts) expect(file.get(id)).toBe(text);
    for (const id of [0, 1, 2, 10_000, 1e9, 1.5, -3, Number.NaN]) expect(file.get(id)).toBeUndefined();
    expect(existsSync(file.file)).toBe(true);
    file.remove();
    expect(existsSync(file.file)).toBe(false);
    expect(file.get(9)).toBeUndefined();
  });

  it('writes no file until a text is read or an append fills', () => {
    const file = new RecordFile(path.join(dir, 'b'));
    file.put(1, 'one');
    expect(existsSync(file.file)).toBe(false);
    expect(file.get(1)).toBe('one');
    expect(existsSync(file.file)).toBe(true);
    file.remove();
    expect(() => file.put(-1, 'x')).toThrow(/whole number/);
  });
});
