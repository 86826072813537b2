/**
 * `v20sim record` against a real `v20sim serve` on loopback (manual clock, quotes pushed through
 * /sim/ticks): the file it writes reads back through the project's tick reader as exactly the
 * quotes the stream carried, liquidity levels included; a dropped connection and a silent one
 * (heartbeats lost) are reconnected without a duplicate; refusals name their cause.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgv, usageMessage } from '../../src/cli/program.js';
import { runParsedRecord } from '../../src/cli/record-command.js';
import { parseDateTime } from '../../src/domain/time.js';
import { readTicks } from '../../src/engine/feeds/index.js';
import {
  MANUAL_ACCOUNT,
  MANUAL_TOKEN,
  quotes,
  startManualServe,
  waitUntil,
  type ManualServe,
  type PushedTick,
} from '../support/manual-serve.js';
import { killAll, runCommand } from '../support/serve-process.js';
import { closedPort, startProxy, type V20Proxy } from '../support/v20-proxy.js';

let serve: ManualServe;
let dir = '';
const proxies: V20Proxy[] = [];
/** Seconds after t0 of the next quotes to push: every test moves the clock on. */
let second = 1;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'v20sim-record-'));
  serve = await startManualServe(dir);
  await serve.push(quotes(second, second));
  second += 1;
}, 60_000);

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  killAll();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

function nextQuotes(n: number): PushedTick[] {
  const ticks = quotes(second, second + n - 1);
  second += n;
  return ticks;
}

interface Recording {
  readonly done: Promise<number>;
  readonly stderr: string[];
  readonly stop: AbortController;
}

function record(args: readonly string[]): Recording {
  const parsed = parseArgv(['record', ...args]);
  if (parsed.kind === 'usage') return { done: Promise.resolve(2), stderr: [usageMessage(parsed)], stop: new AbortController() };
  if (parsed.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
  const stderr: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      stderr.push(chunk.toString());
      callback();
    },
  });
  const stop = new AbortController();
  return { done: runParsedRecord(parsed, { stderr: stream, isTTY: false, env: {}, stop: stop.signal }), stderr, stop };
}

function common(url: string, file: string, ...more: string[]): string[] {
  return ['--url', url, '--token', MANUAL_TOKEN, '--account', MANUAL_ACCOUNT, '--instrument', 'EUR_USD,USD_JPY', '--out', file, ...more];
}

function lineCount(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8').split('\n').length - 1;
}

/** The file as the replay reads it, in the pushed ticks' terms. */
function replayed(file: string): { instrument: string; time: number; bid: number; ask: number; levels: number }[] {
  return [...readTicks(file)].map((t) => ({ instrument: t.instrument, time: t.time, bid: t.bid, ask: t.ask, levels: t.bids?.length ?? 0 }));
}

function expected(ticks: readonly PushedTick[]): { instrument: string; time: number; bid: number; ask: number; levels: number }[] {
  return ticks.map((t) => ({
    instrument: t.instrument,
    time: parseDateTime(t.time) as number,
    bid: Number(t.bid),
    ask: Number(t.ask),
    levels: 1,
  }));
}

describe('v20sim record', () => {
  it('writes the stream as a tick file the replay reads back, liquidity levels included', async () => {
    const file = path.join(dir, 'ticks.ndjson');
    const pushed = nextQuotes(20);
    // The stream opens with the current price of each instrument, then every quote pushed.
    const run = record(common(serve.url, file, '--count', String(2 + pushed.length)));
    await waitUntil(() => lineCount(`${file}.partial`) === 2, 'the opening prices');
    const opening = replayed(`${file}.partial`);
    await serve.push(pushed);
    expect(await run.done).toBe(0);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(run.stderr.join('')).toContain(`${2 + pushed.length} ticks written to ${file}`);
    expect(replayed(file)).toEqual([...opening, ...expected(pushed)]);
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[2] as string) as Record<string, unknown>;
    expect(first).toEqual({
      instrument: 'EUR_USD',
      time: pushed[0]?.time,
      bid: pushed[0]?.bid,
      ask: pushed[0]?.ask,
      closeoutBid: pushed[0]?.bid,
      closeoutAsk: pushed[0]?.ask,
      bids: [{ price: pushed[0]?.bid, liquidity: 10_000_000 }],
      asks: [{ price: pushed[0]?.ask, liquidity: 10_000_000 }],
    });
    const ticks = [...readTicks(file)];
    expect(ticks[2]?.bids).toEqual([{ price: Number(pushed[0]?.bid), liquidity: 10_000_000 }]);
  });

  it('reconnects after a dropped connection and after lost heartbeats, writing no tick twice', async () => {
    const proxy = await startProxy(serve.url);
    proxies.push(proxy);
    const file = path.join(dir, 'reconnect.ndjson');
    const run = record(common(proxy.url, file, '--heartbeat-timeout', '3', '--retry-base-ms', '10'));
    await waitUntil(() => lineCount(`${file}.partial`) === 2, 'the opening prices');
    const opening = replayed(`${file}.partial`);
    const a = nextQuotes(5);
    await serve.push(a);
    await waitUntil(() => lineCount(`${file}.partial`) === 12, 'the first quotes');
    // A network drop: the new connection's opening prices repeat the last ones, and are skipped.
    proxy.dropAll();
    // The new connection is subscribed once its first bytes (opening prices, heartbeat) are out.
    await waitUntil(() => (proxy.bytes[1] ?? 0) > 0, 'the reconnect');
    const b = nextQuotes(5);
    await serve.push(b);
    await waitUntil(() => lineCount(`${file}.partial`) === 22, 'the quotes after the drop');
    // A silent connection: open, but no line (not even a heartbeat) gets through any more. (The
    // timeout is 15 heartbeats, so a busy machine delaying a few is not taken for a silence.)
    proxy.freeze();
    const c = nextQuotes(5);
    await serve.push(c);
    await waitUntil(() => run.stderr.join('').includes('no line for 3 s (heartbeats lost)'), 'the heartbeat timeout');
    // The reconnect (a new connection, not frozen) opens with the quotes missed while the old one
    // was silent (the last of each instrument); the others are lost, as on a real outage.
    await waitUntil(() => lineCount(`${file}.partial`) === 24, 'the prices after the silence');
    run.stop.abort();
    expect(await run.done).toBe(0);
    const missed = c.slice(-2);
    expect(replayed(file)).toEqual([...opening, ...expected(a), ...expected(b), ...expected(missed)]);
    expect(run.stderr.join('')).toMatch(/the server closed the stream|connection lost/);
  }, 60_000);

  it('continues a .partial left by a killed run after its last line', async () => {
    // What the killed run had written: a recording of its own.
    const earlierFile = path.join(dir, 'earlier.ndjson');
    const recorded = nextQuotes(4);
    const first = record(common(serve.url, earlierFile, '--count', String(2 + recorded.length)));
    await waitUntil(() => lineCount(`${earlierFile}.partial`) === 2, 'the opening prices');
    await serve.push(recorded);
    expect(await first.done).toBe(0);
    const earlier = readFileSync(earlierFile, 'utf8');
    // Quotes while no run is recording: the next run opens with the last of them, newer than
    // the file's last line, so they are written too.
    await serve.push(nextQuotes(2));
    const file = path.join(dir, 'continued.ndjson');
    // A killed run: whole lines, then one cut short.
    writeFileSync(`${file}.partial`, `${earlier}{"instrument":"EUR_US`);
    const pushed = nextQuotes(3);
    const run = record(common(serve.url, file, '--count', String(2 + pushed.length)));
    await waitUntil(() => run.stderr.join('').includes('continuing'), 'the resume');
    await waitUntil(() => lineCount(`${file}.partial`) === lineCount(earlierFile) + 2, 'the opening prices');
    await serve.push(pushed);
    expect(await run.done).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(earlier)).toBe(true);
    const all = replayed(file);
    const before = replayed(earlierFile);
    expect(all.slice(0, before.length)).toEqual(before);
    expect(all.slice(-pushed.length)).toEqual(expected(pushed));
    expect(all.length).toBe(before.length + 2 + pushed.length);
    for (const tick of all.slice(before.length)) expect(tick.time).toBeGreaterThan(before.at(-1)?.time ?? 0);
  });

  it("writes several instruments in time order, though the stream opens with each one's last quote", async () => {
    const file = path.join(dir, 'ordered.ndjson');
    // USD_JPY's last quote a second older than EUR_USD's: the stream opens EUR_USD, then USD_JPY.
    const [jpy, eur] = [nextQuotes(1)[1], nextQuotes(1)[0]] as [PushedTick, PushedTick];
    await serve.push([jpy, eur]);
    const pushed = nextQuotes(3);
    const run = record(common(serve.url, file, '--count', String(2 + pushed.length)));
    await waitUntil(() => lineCount(`${file}.partial`) >= 2, 'the opening prices');
    await serve.push(pushed);
    expect(await run.done).toBe(0);
    const times = replayed(file).map((t) => t.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(
      replayed(file)
        .slice(0, 2)
        .map((t) => t.instrument),
    ).toEqual(['USD_JPY', 'EUR_USD']);
    expect(replayed(file)).toHaveLength(2 + pushed.length);
  });

  it('stops after --duration with what the stream carried', async () => {
    const file = path.join(dir, 'duration.ndjson');
    const run = record(common(serve.url, file, '--duration', '0.5'));
    expect(await run.done).toBe(0);
    expect(lineCount(file)).toBe(2);
  });

  it('names the cause of a refusal, exit code 1, and leaves no complete-looking file', async () => {
    const file = path.join(dir, 'refused.ndjson');
    const token = record(common(serve.url, file).map((a) => (a === MANUAL_TOKEN ? 'wrong' : a)));
    expect(await token.done).toBe(1);
    expect(token.stderr.join('')).toContain('401 Unauthorized, the token was refused (check --token)');
    const account = record(common(serve.url, file).map((a) => (a === MANUAL_ACCOUNT ? '101-004-9999999-001' : a)));
    expect(await account.done).toBe(1);
    expect(account.stderr.join('')).toMatch(/pricing stream of account 101-004-9999999-001: (403|404|HTTP 400)/);
    const port = await closedPort();
    const unreachable = record(common(`http://127.0.0.1:${port}`, file));
    expect(await unreachable.done).toBe(1);
    expect(unreachable.stderr.join('')).toContain(`pricing stream: cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
    const usage = record(['--token', 'x', '--account', MANUAL_ACCOUNT, '--instrument', 'EUR_USD']);
    expect(await usage.done).toBe(2);
    expect(usage.stderr.join('')).toContain('--out is required');
  });

  it('ends on SIGINT as a process: the file closed and renamed, exit code 0', async () => {
    const file = path.join(dir, 'signal.ndjson');
    const child = runCommand(['record', ...common(serve.url, file)]);
    await waitUntil(() => lineCount(`${file}.partial`) === 2, 'the opening prices');
    child.child.kill('SIGINT');
    expect((await child.exited).code).toBe(0);
    expect(lineCount(file)).toBe(2);
    expect(existsSync(`${file}.partial`)).toBe(false);
  }, 60_000);
});
