import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat, formatFromLine } from './detect.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-detect-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
}

describe('detectFormat', () => {
  it('knows formats by file name first', () => {
    expect(detectFormat(write('a.ndjson', ''))).toBe('ndjson');
    expect(detectFormat(write('b.jsonl.gz', gzipSync(strToU8(''))))).toBe('ndjson');
    expect(detectFormat(write('20140501_quote.zip', zipSync({ 'x.csv': strToU8('1,2,3') })))).toBe('lean');
    expect(detectFormat(write('20140501_eurusd_tick_quote.csv', '292,1.1,1.2'))).toBe('lean');
    expect(detectFormat(write('DAT_ASCII_EURUSD_T_202001.csv', ''))).toBe('histdata');
  });

  it('falls back to the first non-empty line, after decompression', () => {
    expect(detectFormat(write('p.txt', '\n{"instrument":"EUR_USD"}'))).toBe('ndjson');
    expect(detectFormat(write('q.txt', '20200101 170000065,1.121200,1.121720,0'))).toBe('histdata');
    expect(detectFormat(write('usdjpy-ticks.csv', 'timestamp,bid,ask\n'))).toBe('truefx');
    expect(detectFormat(write('r.csv', '2013-01-01 22:00:00.295000+00:00,86.655,86.728'))).toBe('truefx');
    expect(detectFormat(write('s.zip', zipSync({ 'inner.csv': strToU8('292,1.38676,1.38686\r\n') })))).toBe('lean');
    expect(detectFormat(write('t.csv.gz', gzipSync(strToU8('time,instrument,bid,ask\n'))))).toBe('csv');
    expect(detectFormat(write('u.csv', '2020-01-01T00:00:00Z,EUR_USD,1.1,1.2'))).toBe('csv');
    expect(detectFormat(write('empty.csv', ''))).toBe('csv');
  });

  it('reads lines by shape', () => {
    expect(formatFromLine('1398902400292,EUR_USD,1.1,1.2')).toBe('csv');
    expect(formatFromLine('time,bid,ask')).toBe('csv');
    expect(formatFromLine(' TIMESTAMP , bid , ask ')).toBe('truefx');
    expect(formatFromLine('86399999.5,1.3,1.31')).toBe('lean');
  });
});
