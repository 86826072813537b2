import { crc32c as reference } from '@aws-crypto/crc32c';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cUpdate } from './crc32c.js';

describe('crc32c', () => {
  it('gives the check value of CRC-32C and of RFC 3720 B.4', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(32))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('equals @aws-crypto/crc32c on any bytes, in one piece or two', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (bytes, cut) => {
        const at = bytes.length === 0 ? 0 : cut % bytes.length;
        expect(crc32c(bytes)).toBe(reference(bytes));
        expect(crc32cUpdate(crc32cUpdate(0, bytes.subarray(0, at)), bytes.subarray(at))).toBe(reference(bytes));
      }),
    );
  });
});
