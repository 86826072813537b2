import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FeedParseError } from './errors.js';
import { readTicks } from './read-ticks.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-time-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = path.join(dir, 'back.csv');
writeFileSync(
  file,
  [
    'instrument,time,bid,ask',
    'EUR_USD,2024-01-02T00:00:02Z,1.1,1.1002',
    'USD_JPY,2024-01-02T00:00:02Z,140,140.02',
    'EUR_USD,2024-01-02T00:00:01Z,1.1,1.1002',
    '',
  ].join('\n'),
);

describe('a tick file whose time goes back', () => {
  it('is refused where it goes back, naming the file and line, when read in time order', () => {
    let error: unknown;
    try {
      for (const tick of readTicks(file, { inTimeOrder: true })) void tick;
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FeedParseError);
    expect((error as FeedParseError).line).toBe(4);
    expect((error as Error).message).toBe(
      `${file}:4: the time goes back to 2024-01-02T00:00:01.000000000Z after 2024-01-02T00:00:02.000000000Z (ticks must be in time order): "EUR_USD,2024-01-02T00:00:01Z,1.1,1.1002"`,
    );
  });

  it('is read as it is otherwise (equal times are in order)', () => {
    expect([...readTicks(file)].map((t) => t.instrument)).toEqual(['EUR_USD', 'USD_JPY', 'EUR_USD']);
  });
});
