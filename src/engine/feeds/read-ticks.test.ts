import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tick } from '../../domain/tick.js';
import { FeedParseError } from './errors.js';
import type { FeedOptions } from './options.js';
import { readTicks } from './read-ticks.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-ticks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: string | Uint8Array): string {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, data);
  return file;
}

const us = (iso: string): number => Date.parse(iso) * 1000;
const read = (file: string, opts: FeedOptions = {}): Tick[] => [...readTicks(file, opts)];

function parseError(run: () => unknown): FeedParseError {
  try {
    run();
  } catch (error) {
    if (error instanceof FeedParseError) return error;
    throw error;
  }
  throw new Error('expected a FeedParseError');
}

describe('csv', () => {
  it('reads headerless time,instrument,bid,ask with any time rule', () => {
    const file = write(
      'plain.csv',
      [
        '2014-05-01T00:00:00.292Z,EUR_USD,1.38676,1.38686',
        '1398902401,USD_JPY,102.1,102.12',
        '1398902401500,EUR_USD,1.38676,1.38687',
        '1398902402.25,EUR_USD,1.3867,1.3868',
      ].join('\n'),
    );
    expect(read(file, { format: 'csv' })).toEqual([
      { instrument: 'EUR_USD', time: us('2014-05-01T00:00:00.292Z'), bid: 1.38676, ask: 1.38686 },
      { instrument: 'USD_JPY', time: us('2014-05-01T00:00:01Z'), bid: 102.1, ask: 102.12 },
      { instrument: 'EUR_USD', time: us('2014-05-01T00:00:01.500Z'), bid: 1.38676, ask: 1.38687 },
      { instrument: 'EUR_USD', time: us('2014-05-01T00:00:02.250Z'), bid: 1.3867, ask: 1.3868 },
    ]);
  });

  it('skips a header, which may reorder columns, add closeouts and carry extra columns', () => {
    const file = write(
      'header.csv',
      'ask,Bid,volume,instrument,time,closeoutBid,closeoutAsk\r\n1.1,1.0,5,EUR_USD,2020-01-01T00:00:00Z,0.99,1.11\r\n',
    );
    expect(read(file)).toEqual([
      { instrument: 'EUR_USD', time: us('2020-01-01T00:00:00Z'), bid: 1.0, ask: 1.1, closeoutBid: 0.99, closeoutAsk: 1.11 },
    ]);
  });

  it('takes the instrument from the options when the header has no instrument column', () => {
    const file = write('no-instrument.csv', 'time,bid,ask,spare\n1577836800000,1.1,1.2,x\n');
    expect(read(file, { format: 'csv', instrument: 'GBP_USD' })).toEqual([
      { instrument: 'GBP_USD', time: us('2020-01-01T00:00:00Z'), bid: 1.1, ask: 1.2 },
    ]);
    expect(() => read(file, { format: 'csv' })).toThrow(/header lacks column\(s\) instrument/);
  });

  it('lets locked and crossed quotes through, in file order for equal times', () => {
    const file = write('crossed.csv', 'time,instrument,bid,ask\n1577836800,EUR_USD,1.2,1.1\n1577836800,EUR_USD,1.15,1.15\n');
    expect(read(file).map((t) => [t.bid, t.ask])).toEqual([
      [1.2, 1.1],
      [1.15, 1.15],
    ]);
  });

  it('skips empty lines but still counts them in error line numbers', () => {
    const file = write('blank.csv', 'time,instrument,bid,ask\n\n1577836800,EUR_USD,1.1,1.2\n\r\n1577836801,EUR_USD,oops,1.2\n');
    const error = parseError(() => read(file));
    expect(error.line).toBe(5);
    expect(error.file).toBe(file);
    expect(error.message).toBe(`${file}:5: bid must be a finite positive number: "1577836801,EUR_USD,oops,1.2"`);
  });

  it('rejects malformed lines with the reason and line number', () => {
    const cases: [string, RegExp][] = [
      ['1577836800,EUR_USD,1.1', /:1: expected 4 fields .*got 3/],
      ['1577836800,EUR_USD,1.1,1.2,1.0,1.3', /:1: expected 4 fields .*closeout columns need a header/],
      ['1577836800,EURUSD,1.1,1.2', /:1: instrument must look like BASE_QUOTE/],
      ['1577836800,EUR_USD,0,1.2', /:1: bid must be a finite positive number/],
      ['1577836800,EUR_USD,1.1,-1.2', /:1: ask must be a finite positive number/],
      ['2020-01-01T00:00:00,EUR_USD,1.1,1.2', /:1: first line is neither a header nor a tick: time must be RFC3339 \(with zone\)/],
      ['time,instrument,bid,ask\n2020-13-01T00:00:00Z,EUR_USD,1.1,1.2', /:2: time must be/],
      ['time,instrument,instrument,bid,ask', /:1: header names column instrument twice/],
      ['time,instrument,bid,ask,closeoutBid', /:1: header must name both closeoutBid and closeoutAsk/],
      ['1.1.1,EUR_USD,1.1,1.2', /:1: first line is neither a header nor a tick/],
      ['1577836800,EUR_USD,1.1,1.2\n2020-01-01T00:00:00,EUR_USD,1.1,1.2', /:2: time must be RFC3339 \(with zone\)/],
    ];
    cases.forEach(([text, pattern], i) => {
      const file = write(`bad-${i}.csv`, text);
      expect(() => read(file, { format: 'csv' })).toThrow(pattern);
    });
  });

  it('reads gzip and zip round trips', () => {
    const text = 'time,instrument,bid,ask\n2020-01-01T00:00:00Z,EUR_USD,1.1,1.2\n2020-01-01T00:00:01Z,EUR_USD,1.1,1.3';
    const expected = read(write('rt.csv', text));
    expect(expected).toHaveLength(2);
    expect(read(write('rt.csv.gz', gzipSync(strToU8(text))))).toEqual(expected);
    expect(read(write('rt.zip', zipSync({ 'rt.csv': strToU8(text) })), { format: 'csv' })).toEqual(expected);
  });
});

describe('ndjson', () => {
  it('reads flat objects with RFC3339 or UNIX times and numeric or string prices', () => {
    const file = write(
      'ticks.ndjson',
      [
        '{"instrument":"EUR_USD","time":"2020-01-01T00:00:00.5Z","bid":1.1,"ask":"1.2"}',
        '{"instrument":"EUR_USD","time":"1577836801.000001","bid":"1.1","ask":1.2,"closeoutBid":"1.09","closeoutAsk":1.21}',
      ].join('\n'),
    );
    expect(read(file)).toEqual([
      { instrument: 'EUR_USD', time: us('2020-01-01T00:00:00.500Z'), bid: 1.1, ask: 1.2 },
      { instrument: 'EUR_USD', time: us('2020-01-01T00:00:01Z') + 1, bid: 1.1, ask: 1.2, closeoutBid: 1.09, closeoutAsk: 1.21 },
    ]);
  });

  it('reads lines recorded from the v20 pricing stream and skips heartbeats', () => {
    const file = write(
      'stream.jsonl',
      [
        '{"type":"HEARTBEAT","time":"2020-01-01T00:00:00.000000000Z"}',
        '{"type":"PRICE","instrument":"USD_JPY","time":"2020-01-01T00:00:00.123456789Z","bids":[{"price":"108.123","liquidity":1000000}],"asks":[{"price":"108.133","liquidity":1000000}],"closeoutBid":"108.120","closeoutAsk":"108.136","tradeable":true}',
      ].join('\r\n'),
    );
    expect(read(file)).toEqual([
      {
        instrument: 'USD_JPY',
        time: us('2020-01-01T00:00:00.123Z') + 456,
        bid: 108.123,
        ask: 108.133,
        closeoutBid: 108.12,
        closeoutAsk: 108.136,
        // v20's buckets carry liquidity: they are the quote's levels.
        bids: [{ price: 108.123, liquidity: 1000000 }],
        asks: [{ price: 108.133, liquidity: 1000000 }],
      },
    ]);
  });

  it('fills a missing instrument from the options', () => {
    const file = write('no-instrument.ndjson', '{"time":"1577836800","bid":1.1,"ask":1.2}');
    expect(read(file, { instrument: 'AUD_USD' })[0]?.instrument).toBe('AUD_USD');
    expect(() => read(file)).toThrow(/:1: instrument must be a string/);
  });

  it('names the line of invalid JSON or a bad field', () => {
    const file = write('bad.ndjson', '{"instrument":"EUR_USD","time":"1577836800","bid":1.1,"ask":1.2}\n{"instrument":"EUR_USD",\n');
    expect(parseError(() => read(file)).line).toBe(2);
    const noAsk = write('no-ask.ndjson', '{"instrument":"EUR_USD","time":"1577836800","bid":1.1}');
    expect(() => read(noAsk)).toThrow(/:1: missing ask/);
    const badTime = write('bad-time.ndjson', '{"instrument":"EUR_USD","time":"yesterday","bid":1.1,"ask":1.2}');
    expect(() => read(badTime)).toThrow(/:1: time must be RFC3339/);
    const array = write('array.ndjson', '[1,2]');
    expect(() => read(array)).toThrow(/:1: line must hold a JSON object/);
  });
});

describe('lean', () => {
  const text = '292,1.38676,1.38686\r\n920,1.38676,1.38687\r\n920,1.38675,1.38688\r\n86399999.5,1.3,1.31';
  const midnight = us('2014-05-01T00:00:00Z');

  it('reads a LEAN zip: UTC midnight of the file date plus milliseconds, EUR_USD by default', () => {
    const file = write('20140501_quote.zip', zipSync({ '20140501_eurusd_tick_quote.csv': strToU8(text) }));
    expect(read(file)).toEqual([
      { instrument: 'EUR_USD', time: midnight + 292_000, bid: 1.38676, ask: 1.38686 },
      { instrument: 'EUR_USD', time: midnight + 920_000, bid: 1.38676, ask: 1.38687 },
      { instrument: 'EUR_USD', time: midnight + 920_000, bid: 1.38675, ask: 1.38688 },
      { instrument: 'EUR_USD', time: midnight + 86_399_999_500, bid: 1.3, ask: 1.31 },
    ]);
  });

  it("takes the instrument from the options, the inner csv name or LEAN's pair folder", () => {
    const inner = write('20140502_nzdusd_tick_quote.csv', text);
    expect(read(inner)[0]).toMatchObject({ instrument: 'NZD_USD', time: us('2014-05-02T00:00:00.292Z') });
    const inFolder = write('nzdusd/20140501_quote.zip', zipSync({ 'x.csv': strToU8(text) }));
    expect(read(inFolder)[0]?.instrument).toBe('NZD_USD');
    expect(read(inFolder, { instrument: 'XAU_USD' })[0]?.instrument).toBe('XAU_USD');
    expect(() => read(inFolder, { instrument: 'gold' })).toThrow(/instrument option must look like BASE_QUOTE/);
  });

  it('needs the date in the file name', () => {
    const file = write('quotes.csv', text);
    expect(() => read(file, { format: 'lean' })).toThrow(/a LEAN file name must start with its date/);
  });

  it('rejects lines that are not ms,bid,ask', () => {
    const cases: [string, RegExp][] = [
      ['292,1.38676', /:1: expected 3 fields/],
      ['292,1.38676,1.38686,5', /:1: expected 3 fields/],
      ['292,1.38676,1.38686\n-5,1.3,1.4', /:2: ms_since_midnight must be/],
      ['86400000,1.3,1.4', /:1: ms_since_midnight must be/],
      ['292,,1.38686', /:1: bid must be a finite positive number/],
      ['292,1.38676,x', /:1: ask must be a finite positive number/],
    ];
    cases.forEach(([body, pattern], i) => {
      const file = write(`bad${i}/20140501_eurusd_tick_quote.csv`, body);
      expect(() => read(file)).toThrow(pattern);
    });
  });
});

describe('truefx', () => {
  const body = 'timestamp,bid,ask\n2013-01-01 22:00:00.295000+00:00,86.655,86.728\n2013-01-01 22:34:34.652000+00:00,86.836,86.836';

  it('skips the header and takes the instrument from the file name', () => {
    expect(read(write('usdjpy-ticks.csv', body))).toEqual([
      { instrument: 'USD_JPY', time: us('2013-01-01T22:00:00.295Z'), bid: 86.655, ask: 86.728 },
      { instrument: 'USD_JPY', time: us('2013-01-01T22:34:34.652Z'), bid: 86.836, ask: 86.836 },
    ]);
  });

  it('needs the instrument when the name does not tell it', () => {
    const file = write('ticks.csv', body);
    expect(() => read(file, { format: 'truefx' })).toThrow(/cannot tell the instrument from the file name/);
    expect(read(file, { format: 'truefx', instrument: 'USD_JPY' })).toHaveLength(2);
  });

  it('rejects a bad timestamp, also on the first line when it is not a header', () => {
    expect(() => read(write('eurusd-bad.csv', 'timestamp,bid,ask\n2013-01-01 22:00:00,1.1,1.2'))).toThrow(/:2: timestamp must look like/);
    expect(() => read(write('eurusd-bad2.csv', '2013-13-01 22:00:00Z,1.1,1.2'), { format: 'truefx' })).toThrow(
      /:1: timestamp must look like/,
    );
  });
});

describe('histdata', () => {
  it('converts fixed EST to UTC, with or without the volume column', () => {
    const file = write('DAT_ASCII_EURUSD_T_202001.csv', '20200101 170000065,1.121200,1.121720,0\n20200701 235959999,1.1,1.2');
    expect(read(file)).toEqual([
      { instrument: 'EUR_USD', time: us('2020-01-01T22:00:00.065Z'), bid: 1.1212, ask: 1.12172 },
      // No daylight saving: July is UTC-5 too, and the day rolls over.
      { instrument: 'EUR_USD', time: us('2020-07-02T04:59:59.999Z'), bid: 1.1, ask: 1.2 },
    ]);
  });

  it('rejects a bad time or volume and asks for an instrument when the name does not tell it', () => {
    const other = write('quotes.txt', '20200101 170000065,1.1212,1.12172,0');
    expect(() => read(other, { format: 'histdata' })).toThrow(/pass the instrument option/);
    expect(read(other, { format: 'histdata', instrument: 'EUR_USD' })).toHaveLength(1);
    expect(() => read(write('h1.txt', '20200101 240000000,1.1,1.2,0'), { format: 'histdata', instrument: 'EUR_USD' })).toThrow(
      /:1: time must be YYYYMMDD HHMMSSmmm/,
    );
    expect(() => read(write('h2.txt', '20200101 170000065,1.1,1.2,x'), { format: 'histdata', instrument: 'EUR_USD' })).toThrow(
      /:1: volume must be/,
    );
  });
});

describe('readTicks', () => {
  it('can be iterated twice and rejects unknown formats up front', () => {
    const ticks = readTicks(write('twice.csv', '1577836800,EUR_USD,1.1,1.2'));
    expect([...ticks]).toEqual([...ticks]);
    expect(() => readTicks('x.csv', { format: 'xml' as never })).toThrow(/unknown tick file format "xml"/);
  });
});
