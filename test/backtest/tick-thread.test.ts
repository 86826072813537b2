import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_TICKS_FILE, openTicks, type TickSourceOptions } from '../../src/backtest/tick-files.js';
import { startTickThread, TICK_THREAD_MIN_BYTES, type TickThread } from '../../src/backtest/tick-thread.js';
import type { Tick } from '../../src/domain/tick.js';
import { decompressedSize, generateTicks, writeTicksCsv } from '../../src/engine/feeds/index.js';
import { formatRfc3339, parseDateTime, type Micros } from '../../src/domain/time.js';
import { LEAN_DIR, hasLeanData, leanFiles } from '../support/lean-eurusd.js';
import { runBacktestCommand } from '../../src/cli/backtest-command.js';
import { memoryStream, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

/** Every tick of a started reader. */
function drain(thread: TickThread): Tick[] {
  const ticks: Tick[] = [];
  const cursor = thread.cursor();
  for (let tick = cursor.next(); tick !== undefined; tick = cursor.next()) ticks.push(tick);
  return ticks;
}

/** The same files read here with openTicks and on the reader thread (started from the sources if need be). */
function bothWays(
  files: string[],
  options: TickSourceOptions = {},
): { here: Tick[]; thread: Tick[]; hereBytes: number; threadBytes: number } {
  let hereBytes = 0;
  let threadBytes = 0;
  const here = [...openTicks(files, { ...options, onBytes: (n) => void (hereBytes += n) })];
  const thread = startTickThread(files, { ...options, mode: 'always', onBytes: (n) => void (threadBytes += n) });
  expect(thread).toBeDefined();
  return { here, thread: drain(thread as TickThread), hereBytes, threadBytes };
}

describe('tick files read on a second thread', () => {
  it('give the ticks openTicks gives, in order and key for key, merged across files with closeouts', () => {
    const dir = tempDir();
    const ticks = [...generateTicks({ seed: 3, instruments: ['EUR_USD', 'USD_JPY'], count: 5_000 })];
    // Two files whose times interleave, so the merge by time does real work; one with closeouts.
    const a = path.join(dir, 'a.csv');
    const b = path.join(dir, 'b.csv');
    writeTicksCsv(
      a,
      ticks.filter((_, i) => i % 3 !== 0),
    );
    writeTicksCsv(
      b,
      ticks.filter((_, i) => i % 3 === 0),
      { closeouts: true },
    );
    const { here, thread, hereBytes, threadBytes } = bothWays([a, b]);
    expect(here.length).toBe(5_000);
    expect(thread).toEqual(here);
    thread.forEach((tick, i) => expect(Object.keys(tick)).toEqual(Object.keys(here[i] as Tick)));
    expect(threadBytes).toBe(hereBytes);
  });

  it('keep liquidity levels, and a window', () => {
    const dir = tempDir();
    const file = path.join(dir, 'levels.ndjson');
    const lines: string[] = [];
    const start = parseDateTime('2024-01-02T00:00:00Z') as Micros;
    for (let i = 0; i < 3_000; i += 1) {
      const bid = 1.1 + (i % 7) / 10_000;
      const ask = bid + 0.0002;
      const levels = i % 5 === 0 ? { bids: [{ price: bid, liquidity: 1_000_000 }], asks: [{ price: ask, liquidity: 500_000 }] } : {};
      lines.push(JSON.stringify({ time: formatRfc3339((start + i * 1_000_000) as Micros), instrument: 'EUR_USD', bid, ask, ...levels }));
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const window = { from: parseDateTime('2024-01-02T00:10:00Z') as Micros, to: parseDateTime('2024-01-02T00:40:00Z') as Micros };
    const { here, thread } = bothWays([file], window);
    expect(here.length).toBeGreaterThan(1_000);
    expect(here.some((tick) => tick.bids !== undefined)).toBe(true);
    expect(thread).toEqual(here);
  });

  it('stop where openTicks stops, with its error, after the same ticks', () => {
    const dir = tempDir();
    const good = path.join(dir, 'good.csv');
    const bad = path.join(dir, 'bad.csv');
    const ticks = [...generateTicks({ seed: 4, instruments: ['EUR_USD'], count: 3_000 })];
    writeTicksCsv(good, ticks);
    writeTicksCsv(bad, ticks.slice(0, 2_000));
    writeFileSync(bad, `2024-01-09T00:00:00Z,EUR_USD,1.1,not-a-price\n`, { flag: 'a' });
    const read = (take: () => Tick | undefined): { count: number; error: string } => {
      let count = 0;
      try {
        while (take() !== undefined) count += 1;
      } catch (error) {
        return { count, error: (error as Error).message };
      }
      return { count, error: '' };
    };
    const hereIterator = openTicks([good, bad])[Symbol.iterator]();
    const here = read(() => {
      const step = hereIterator.next();
      return step.done === true ? undefined : step.value;
    });
    const cursor = (startTickThread([good, bad], { mode: 'always' }) as TickThread).cursor();
    const thread = read(() => cursor.next());
    expect(here.error).toMatch(/bad\.csv:2002: /);
    expect(thread).toEqual(here);
    expect(cursor.next()).toBeUndefined();
  });

  it('end when the backtest stops early, and read their files once', () => {
    const thread = startTickThread([SAMPLE_TICKS_FILE], { mode: 'always' }) as TickThread;
    const cursor = thread.cursor();
    for (let i = 0; i < 10; i += 1) expect(cursor.next()).toBeDefined();
    thread.close();
    expect(cursor.next()).toBeUndefined();
    expect(() => thread.cursor()).toThrow(/once/);
  });

  it('are left to this thread below the size where a second thread pays', () => {
    const bytes = decompressedSize(SAMPLE_TICKS_FILE);
    expect(bytes).toBeLessThan(TICK_THREAD_MIN_BYTES);
    expect(startTickThread([SAMPLE_TICKS_FILE], { textBytes: bytes })).toBeUndefined();
  });
});

if (!hasLeanData()) process.stderr.write(`tick thread on real data skipped: the OANDA EUR/USD ticks are not at ${LEAN_DIR}\n`);

/** `v20sim backtest ARGS` in this process with V20SIM_TICK_THREAD set to `mode`. */
async function backtestWith(mode: string, args: string[]): Promise<string> {
  const out = memoryStream();
  const err = memoryStream();
  const before = process.env['V20SIM_TICK_THREAD'];
  process.env['V20SIM_TICK_THREAD'] = mode;
  try {
    const code = await runBacktestCommand(args, { stdout: out.stream, stderr: err.stream, isTTY: false });
    expect(code, err.text()).toBe(0);
  } finally {
    if (before === undefined) delete process.env['V20SIM_TICK_THREAD'];
    else process.env['V20SIM_TICK_THREAD'] = before;
  }
  return out.text();
}

function outputs(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  );
}

describe.skipIf(!hasLeanData())('the 13 recorded OANDA EUR/USD files read on a second thread', () => {
  it('v20sim backtest writes the same files byte for byte with the reader thread and without', async () => {
    const [on, off] = [tempDir(), tempDir()];
    const args = (out: string) => ['--strategy', 'examples/strategies/grid.ts', '--ticks', ...leanFiles(), '--out', out];
    const said = await backtestWith('always', args(on));
    expect(said).toMatch(/532,903 ticks/);
    await backtestWith('off', args(off));
    const a = outputs(on);
    expect([...a.keys()]).toEqual(['equity.csv', 'report.html', 'report.json', 'trades.csv', 'transactions.ndjson']);
    expect(outputs(off)).toEqual(a);
  });

  it('give the same 532,903 ticks as openTicks', () => {
    const { here, thread, hereBytes, threadBytes } = bothWays(leanFiles());
    expect(here.length).toBe(532_903);
    expect(thread.length).toBe(here.length);
    // toEqual over half a million objects is slow; the fields are compared directly.
    for (let i = 0; i < here.length; i += 1) {
      const a = here[i] as Tick;
      const b = thread[i] as Tick;
      if (a.time !== b.time || a.bid !== b.bid || a.ask !== b.ask || a.instrument !== b.instrument || Object.keys(b).length !== 4)
        expect({ i, b }).toEqual({ i, b: a });
    }
    expect(threadBytes).toBe(hereBytes);
  });
});
