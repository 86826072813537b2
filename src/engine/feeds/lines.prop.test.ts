import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { gzipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLines } from './lines.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-lines-prop-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lineText = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '.', ' ', 'é', '€', '𝄞'), maxLength: 12 });

describe('readLines (property)', () => {
  it('splits like String.split on \\n, for any line ends, chunk size and compression', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.array(lineText, { maxLength: 20 }),
        fc.array(fc.boolean(), { maxLength: 20 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (lines, crlf, trailing, chunk, gzip) => {
          const text = lines.map((line, i) => line + (i < lines.length - 1 || trailing ? (crlf[i] === true ? '\r\n' : '\n') : '')).join('');
          const file = join(dir, `f${(n += 1)}${gzip ? '.gz' : '.txt'}`);
          writeFileSync(file, gzip ? gzipSync(strToU8(text)) : text);
          const expected = text === '' ? [] : text.replace(/\r\n/g, '\n').split('\n');
          if (text.endsWith('\n')) expected.pop();
          expect([...readLines(file, chunk)]).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
