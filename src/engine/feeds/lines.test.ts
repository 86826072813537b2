import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readByteChunks } from './byte-chunks.js';
import { readLines, readTextBlocks } from './lines.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-lines-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: string | Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A stored zip written by hand with zip64 fields, as LEAN's archives carry them. */
function zip64Stored(name: string, data: Uint8Array, zip64End: boolean): Uint8Array {
  const nameBytes = Buffer.from(name, 'utf8');
  const extra = Buffer.alloc(20);
  extra.writeUInt16LE(1, 0);
  extra.writeUInt16LE(16, 2);
  extra.writeBigUInt64LE(BigInt(data.length), 4);
  extra.writeBigUInt64LE(BigInt(data.length), 12);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt32LE(0xffffffff, 18);
  local.writeUInt32LE(0xffffffff, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  local.writeUInt16LE(extra.length, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt32LE(0xffffffff, 20);
  central.writeUInt32LE(0xffffffff, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt16LE(extra.length, 30);
  const head = Buffer.concat([local, nameBytes, extra, data]);
  const directory = Buffer.concat([central, nameBytes, extra]);
  const tail: Buffer[] = [];
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  if (zip64End) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeBigUInt64LE(1n, 24);
    record.writeBigUInt64LE(1n, 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(head.length), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(head.length + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
    end.writeUInt16LE(0xffff, 8);
    end.writeUInt16LE(0xffff, 10);
    end.writeUInt32LE(0xffffffff, 12);
    end.writeUInt32LE(0xffffffff, 16);
  } else {
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(head.length, 16);
  }
  return Buffer.concat([head, directory, ...tail, end]);
}

describe('readLines', () => {
  it('yields the last line when the file has no trailing newline', () => {
    expect([...readLines(write('no-eol.txt', 'a\nb\nc'))]).toEqual(['a', 'b', 'c']);
  });

  it('drops the \\r of CRLF line ends but keeps empty lines', () => {
    expect([...readLines(write('crlf.txt', 'a\r\nb\r\n\r\nc\r\n'))]).toEqual(['a', 'b', '', 'c']);
  });

  it('reads an empty file as no lines and strips a byte-order mark', () => {
    expect([...readLines(write('empty.txt', ''))]).toEqual([]);
    expect([...readLines(write('bom.txt', '\ufefftime,bid\n1,2'))]).toEqual(['time,bid', '1,2']);
  });

  it('gives the same lines for every chunk size, multi-byte characters included', () => {
    const text = 'é,1\n€€€\n\r\nlong line with 𝄞 and more\nend';
    const file = write('utf8.txt', text);
    const expected = ['é,1', '€€€', '', 'long line with 𝄞 and more', 'end'];
    for (let size = 1; size <= 12; size += 1) expect([...readLines(file, size)], `chunk ${size}`).toEqual(expected);
  });

  it('reads gzip, also multi-member and in small chunks', () => {
    const file = write('data.csv.gz', gzipSync(strToU8('a\nb\nc')));
    expect([...readLines(file)]).toEqual(['a', 'b', 'c']);
    const twoMembers = write('two.gz', concat(gzipSync(strToU8('a\nb')), gzipSync(strToU8('c\nd\n'))));
    expect([...readLines(twoMembers)]).toEqual(['a', 'bc', 'd']);
    expect([...readLines(twoMembers, 3)]).toEqual(['a', 'bc', 'd']);
  });

  it('reads the single file of a zip, deflated or stored, whatever the archive is called', () => {
    const text = '292,1.38676,1.38686\r\n920,1.38676,1.38687';
    const deflated = write('20140501_quote.zip', zipSync({ '20140501_eurusd_tick_quote.csv': strToU8(text) }));
    const stored = write('stored.bin', zipSync({ 'x.csv': [strToU8(text), { level: 0 }] }));
    for (const file of [deflated, stored]) expect([...readLines(file, 7)]).toEqual(['292,1.38676,1.38686', '920,1.38676,1.38687']);
  });

  it('reads zip64 fields in the central directory and the zip64 end record', () => {
    for (const zip64End of [false, true]) {
      const file = write(`z64-${zip64End}.zip`, zip64Stored('a.csv', strToU8('1,2,3\n4,5,6'), zip64End));
      expect([...readLines(file)]).toEqual(['1,2,3', '4,5,6']);
    }
  });

  it('ignores directory entries in a zip but refuses several files', () => {
    const withDir = write('dir.zip', zipSync({ 'folder/': new Uint8Array(0), 'folder/a.csv': strToU8('x\ny') }));
    expect([...readLines(withDir)]).toEqual(['x', 'y']);
    const two = write('two.zip', zipSync({ 'a.csv': strToU8('1'), 'b.csv': strToU8('2') }));
    expect(() => [...readLines(two)]).toThrow(/holds 2 files \(a\.csv, b\.csv\); expected exactly one/);
    const none = write('none.zip', zipSync({}));
    expect(() => [...readLines(none)]).toThrow(/holds no file/);
  });

  it('names the file when compressed data is corrupt', () => {
    const gz = gzipSync(strToU8('a\nb\n'.repeat(1000)));
    const truncated = write('cut.gz', gz.subarray(0, gz.length - 20));
    expect(() => [...readLines(truncated)]).toThrow(/cut\.gz: corrupt compressed data/);
  });

  it('throws a plain error for a missing file', () => {
    expect(() => [...readLines(join(dir, 'missing.csv'))]).toThrow(/ENOENT/);
  });
});

describe('readTextBlocks', () => {
  it('cuts blocks only after newlines', () => {
    const file = write('blocks.txt', 'aa\nbb\ncc\ndd');
    const blocks = [...readTextBlocks(file, 4)];
    expect(blocks.join('')).toBe('aa\nbb\ncc\ndd');
    for (const block of blocks.slice(0, -1)) expect(block.endsWith('\n')).toBe(true);
  });
});

describe('readByteChunks', () => {
  const text = (chunks: Iterable<Uint8Array>): string => Buffer.concat([...chunks]).toString('utf8');

  it('streams large compressed inputs through fflate with the same result as native zlib', () => {
    const body = Array.from({ length: 5000 }, (_, i) => `${i},1.${String(i).padStart(5, '0')},2`).join('\n');
    const gz = write('stream.gz', concat(gzipSync(strToU8(body.slice(0, 100))), gzipSync(strToU8(body.slice(100)))));
    const zip = write('stream.zip', zipSync({ 'a.csv': strToU8(body) }));
    for (const file of [gz, zip]) {
      expect(text(readByteChunks(file, 257, 0))).toBe(body);
      expect(text(readByteChunks(file, 257))).toBe(body);
    }
  });

  it("reads a deflated zip entry whole with its directory's size as zlib's buffer, and refuses a directory that says another", () => {
    const body = Array.from({ length: 20_000 }, (_, i) => `${i},1.${String(i).padStart(5, '0')},2`).join('\n');
    const zip = zipSync({ 'a.csv': strToU8(body) });
    expect(text(readByteChunks(write('sized.zip', zip), 4096))).toBe(body);
    // gzip: its trailer's size, exact for one member, the last member's for several.
    expect(text(readByteChunks(write('sized.gz', gzipSync(strToU8(body))), 4096))).toBe(body);
    const half = body.length >> 1;
    const members = concat(gzipSync(strToU8(body.slice(0, half))), gzipSync(strToU8(body.slice(half))));
    expect(text(readByteChunks(write('members.gz', members), 4096))).toBe(body);
    // The uncompressed size in the central directory entry (signature PK 1 2, the field at +24).
    const central = Buffer.from(zip).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    for (const said of [body.length - 1, body.length + 1, 10, body.length * 3]) {
      const lying = Uint8Array.from(zip);
      new DataView(lying.buffer).setUint32(central + 24, said, true);
      expect(() => text(readByteChunks(write(`said-${said}.zip`, lying), 4096))).toThrow(
        new RegExp(`entry is ${body.length} bytes, directory says ${said}`),
      );
    }
  });

  it('reports corrupt data on the streaming path too', () => {
    const gz = gzipSync(strToU8('a\nb\n'.repeat(1000)));
    const truncated = write('cut-stream.gz', gz.subarray(0, gz.length - 20));
    expect(() => text(readByteChunks(truncated, 64, 0))).toThrow(/cut-stream\.gz: corrupt compressed data/);
  });

  it('closes the file when the consumer stops early', () => {
    const file = write('big.txt', 'x'.repeat(100));
    for (const chunk of readByteChunks(file, 10)) {
      expect(chunk.length).toBe(10);
      break;
    }
    // A leaked descriptor would not fail here, but the generator's finally ran if return() did.
    const iterator = readByteChunks(file, 10);
    iterator.next();
    expect(iterator.return(undefined).done).toBe(true);
  });
});
