/**
 * `v20sim download candles` end to end against a real `v20sim serve` on loopback (manual clock,
 * half an hour of pushed quotes), never the internet: paging, NDJSON and CSV, resume after a
 * killed run and after a truncated line, 429/503 retries through a proxy, and the refusals (401,
 * a bad instrument, an unreachable server, bad options). Temp dirs and children are cleaned up.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParsedDownload } from '../../src/cli/download-command.js';
import { parseArgv, usageMessage } from '../../src/cli/program.js';
import { formatRfc3339 } from '../../src/domain/time.js';
import { detectFormat, readTicks } from '../../src/engine/feeds/index.js';
import { MANUAL_T0, MANUAL_TOKEN, quotes, startManualServe, waitUntil, type ManualServe } from '../support/manual-serve.js';
import { killAll, runCommand } from '../support/serve-process.js';
import { closedPort, startProxy, type V20Proxy } from '../support/v20-proxy.js';

let serve: ManualServe;
let dir = '';
/** The whole download of both instruments' S5 candles in one request each, as NDJSON (beforeAll). */
let reference = '';
const proxies: V20Proxy[] = [];
const FROM = formatRfc3339(MANUAL_T0);
const TO = formatRfc3339(MANUAL_T0 + 3600 * 1_000_000);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'v20sim-download-'));
  serve = await startManualServe(dir);
  // 30 minutes of quotes, then one more so the last S5 and M1 candles are complete.
  await serve.push(quotes(1, 1800));
  await serve.push(quotes(1861, 1861));
  // The reference files every test compares with, made here so that no test needs another to run first.
  expect((await download(common(serve.url, out('whole.ndjson')))).code).toBe(0);
  reference = readFileSync(out('whole.ndjson'), 'utf8');
  expect((await download(common(serve.url, out('candles.csv'), '--page-size', '100'))).code).toBe(0);
}, 60_000);

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  killAll();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function download(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string }> {
  const parsed = parseArgv(['download', 'candles', ...args]);
  if (parsed.kind === 'usage') return { code: 2, stderr: usageMessage(parsed) };
  if (parsed.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(parsed)}`);
  const chunks: string[] = [];
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const code = await runParsedDownload(parsed, { stderr, isTTY: false, env });
  return { code, stderr: chunks.join('') };
}

function out(name: string): string {
  return path.join(dir, name);
}

/** The usual options: both instruments, S5 over the hour, against `url`. */
function common(url: string, file: string, ...more: string[]): string[] {
  return [
    '--url',
    url,
    '--token',
    MANUAL_TOKEN,
    '--instrument',
    'EUR_USD',
    '--instrument',
    'USD_JPY',
    '--granularity',
    'S5',
    '--from',
    FROM,
    '--to',
    TO,
    '--out',
    file,
    ...more,
  ];
}

interface CandleBody {
  candles: { time: string; complete: boolean; volume: number; bid: Record<string, string>; ask: Record<string, string> }[];
}

/** The server's own answer for one instrument in a single request (the whole range fits in one). */
async function direct(instrument: string, granularity: string): Promise<CandleBody['candles']> {
  const res = await fetch(`${serve.url}/v3/instruments/${instrument}/candles?price=BA&granularity=${granularity}&from=${FROM}&to=${TO}`, {
    headers: { authorization: `Bearer ${MANUAL_TOKEN}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as CandleBody).candles.filter((c) => c.complete);
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** A proxy that forwards the first `forwarded` requests and answers every later one with a bare 500. */
async function failingAfter(forwarded: number): Promise<V20Proxy> {
  const proxy = await startProxy(serve.url);
  proxies.push(proxy);
  proxy.rule = (n, _req, res) => {
    if (n < forwarded) return 'forward';
    res.writeHead(500);
    res.end();
    return 'handled';
  };
  return proxy;
}

describe('v20sim download candles', () => {
  it('pages through from + count and writes every complete candle of each instrument in time order', async () => {
    const proxy = await startProxy(serve.url);
    proxies.push(proxy);
    const file = out('paged.ndjson');
    const result = await download(common(proxy.url, file, '--page-size', '50'));
    expect(result.stderr).toContain(`722 candles written to ${file}`);
    expect(result.code).toBe(0);
    expect(existsSync(`${file}.partial`)).toBe(false);
    // 361 complete S5 candles per instrument in pages of 50 (each later page starts after the
    // last candle with includeFirst=false); the eighth page ends at the candle still forming
    // (00:31:00, the clock being at 00:31:01), which says there is nothing more: 8 requests each.
    expect(proxy.seen).toHaveLength(16);
    expect(proxy.seen[0]).toContain('count=50');
    expect(proxy.seen[0]).toContain('includeFirst=true');
    expect(proxy.seen.filter((p) => p.includes('includeFirst=false'))).toHaveLength(14);
    const got = lines(file);
    for (const instrument of ['EUR_USD', 'USD_JPY']) {
      const want = await direct(instrument, 'S5');
      expect(want.length).toBeGreaterThan(300);
      expect(got.filter((c) => c['instrument'] === instrument)).toEqual(
        want.map((c) => ({ instrument, granularity: 'S5', time: c.time, bid: c.bid, ask: c.ask, volume: c.volume, complete: true })),
      );
    }
    const times = got.map((c) => `${String(c['time'])} ${String(c['instrument'])}`);
    expect(times).toEqual([...times].sort());
    // One request per instrument when the range fits in one page (the reference): the same file.
    expect(readFileSync(file, 'utf8')).toBe(reference);
  });

  it('writes a file that --ticks reads as candles: detected, four quotes a candle, in time order', () => {
    const file = out('whole.ndjson');
    expect(detectFormat(file)).toBe('candles');
    const ticks = [...readTicks(file)];
    expect(ticks).toHaveLength(4 * 722);
    const first = JSON.parse(reference.split('\n')[0] as string) as { bid: Record<string, string>; ask: Record<string, string> };
    expect(ticks[0]).toMatchObject({ instrument: 'EUR_USD', time: MANUAL_T0, bid: Number(first.bid['o']), ask: Number(first.ask['o']) });
    for (let i = 1; i < ticks.length; i += 1) expect((ticks[i]?.time ?? 0) >= (ticks[i - 1]?.time ?? 0)).toBe(true);
  });

  it('writes CSV with a header, the same candles', () => {
    const file = out('candles.csv');
    const [header, ...rows] = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(header).toBe('instrument,granularity,time,bid_o,bid_h,bid_l,bid_c,ask_o,ask_h,ask_l,ask_c,volume,complete');
    const fromJson = reference
      .trimEnd()
      .split('\n')
      .map((l) => {
        const c = JSON.parse(l) as {
          instrument: string;
          granularity: string;
          time: string;
          bid: Record<string, string>;
          ask: Record<string, string>;
          volume: number;
        };
        return [
          c.instrument,
          c.granularity,
          c.time,
          c.bid['o'],
          c.bid['h'],
          c.bid['l'],
          c.bid['c'],
          c.ask['o'],
          c.ask['h'],
          c.ask['l'],
          c.ask['c'],
          c.volume,
          true,
        ].join(',');
      });
    expect(rows).toEqual(fromJson);
  });

  it('resumes a killed run from its .partial, a truncated last line cut away', async () => {
    const proxy = await startProxy(serve.url);
    proxies.push(proxy);
    // The fourth request never gets an answer: the run is stuck mid-download when it is killed.
    proxy.rule = (n) => (n >= 3 ? 'handled' : 'forward');
    const file = out('killed.ndjson');
    const child = runCommand(['download', 'candles', ...common(proxy.url, file, '--page-size', '50')]);
    await waitUntil(
      () => proxy.seen.length >= 4 && existsSync(`${file}.partial`) && statSync(`${file}.partial`).size > 0,
      'the stuck request',
    );
    child.child.kill('SIGKILL');
    await child.exited;
    expect(existsSync(file)).toBe(false);
    const before = lines(`${file}.partial`).length;
    expect(before).toBeGreaterThanOrEqual(50);
    // A write the kill cut short.
    appendFileSync(`${file}.partial`, '{"instrument":"EUR_USD","granularity":"S5","time":"2024-01-0');
    const result = await download(common(serve.url, file, '--page-size', '50'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`resuming .*killed\\.ndjson\\.partial after \\w+ \\S+ \\(${before} candles already there\\)`));
    expect(readFileSync(file, 'utf8')).toBe(reference);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(existsSync(`${file}.partial.json`)).toBe(false);
  }, 60_000);

  it('resumes a CSV .partial cut anywhere, to the same file', async () => {
    const whole = readFileSync(out('candles.csv'), 'utf8');
    for (const cut of [0, 40, 5000, 17_777, whole.length - 3]) {
      const file = out(`cut-${cut}.csv`);
      writeFileSync(`${file}.partial`, whole.slice(0, cut));
      // A .partial without the record of its options (as an earlier version left them) is continued unchecked.
      const result = await download(common(serve.url, file, '--page-size', '64'));
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('has no record of the options it was started with');
      expect(readFileSync(file, 'utf8')).toBe(whole);
    }
  });

  it('adds mid prices with --mid and the candle still forming with --include-incomplete; a resume fetches that one again', async () => {
    const file = out('mid.ndjson');
    expect((await download(common(serve.url, file, '--mid', '--include-incomplete', '--page-size', '200'))).code).toBe(0);
    const got = lines(file);
    expect(got).toHaveLength(724);
    expect(got.slice(-2).map((c) => [c['instrument'], c['time'], c['complete']])).toEqual([
      ['EUR_USD', '2024-01-02T00:31:00.000000000Z', false],
      ['USD_JPY', '2024-01-02T00:31:00.000000000Z', false],
    ]);
    expect(Object.keys(got[0] ?? {})).toEqual(['instrument', 'granularity', 'time', 'bid', 'ask', 'mid', 'volume', 'complete']);
    // As a .partial, the incomplete candles at its end are cut and asked for again.
    const again = out('mid-again.ndjson');
    writeFileSync(`${again}.partial`, readFileSync(file, 'utf8'));
    const result = await download(common(serve.url, again, '--mid', '--include-incomplete'));
    expect(result.stderr).toContain('after USD_JPY 2024-01-02T00:30:00.000000000Z (722 candles already there)');
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });

  it('waits out 429 (Retry-After) and 503 answers, then goes on', async () => {
    const proxy = await startProxy(serve.url);
    proxies.push(proxy);
    proxy.rule = (n, _req, res) => {
      if (n === 0 || n === 3) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end('{"errorMessage":"Too many requests"}');
        return 'handled';
      }
      if (n === 1) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('upstream down');
        return 'handled';
      }
      return 'forward';
    };
    const file = out('throttled.ndjson');
    const result = await download(common(proxy.url, file, '--page-size', '100', '--retry-base-ms', '1'));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('EUR_USD: 429 Too Many Requests; retry 1 in 0.0 s');
    expect(result.stderr).toContain('EUR_USD: HTTP 503; retry 2');
    expect(readFileSync(file, 'utf8')).toBe(reference);
  });

  it('gives up after --retries, keeping what it has for a resume', async () => {
    const proxy = await failingAfter(2);
    const file = out('gaveup.ndjson');
    const result = await download(common(proxy.url, file, '--page-size', '100', '--retries', '2', '--retry-base-ms', '1'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('HTTP 500; gave up after 3 attempts');
    expect(existsSync(file)).toBe(false);
    expect(lines(`${file}.partial`).length).toBeGreaterThan(0);
    expect((await download(common(serve.url, file))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(reference);
  });

  it('continues a .partial only for the options it was started with, and leaves it as it is otherwise', async () => {
    const proxy = await failingAfter(2);
    const file = out('options.ndjson');
    const partial = `${file}.partial`;
    const cut = await download(common(proxy.url, file, '--page-size', '100', '--retries', '0'));
    expect(cut.code).toBe(1);
    expect(JSON.parse(readFileSync(`${partial}.json`, 'utf8'))).toEqual({
      instruments: ['EUR_USD', 'USD_JPY'],
      granularity: 'S5',
      from: FROM,
      to: TO,
      format: 'ndjson',
      mid: false,
      includeIncomplete: false,
    });
    // With a cut last line: a refused resume must not even tidy the file up.
    appendFileSync(partial, '{"instrument":"EUR_U');
    const kept = readFileSync(partial, 'utf8');
    const later = formatRfc3339(MANUAL_T0 + 60_000_000);
    const refusals: [string[], string[]][] = [
      [common(serve.url, file).map((a) => (a === FROM ? later : a)), [`--from ${FROM} (now ${later})`]],
      [
        common(serve.url, file, '--mid')
          .filter((a) => a !== 'USD_JPY')
          .filter((a, i, all) => !(a === '--instrument' && all[i + 1] === '--granularity')),
        ['--instrument EUR_USD,USD_JPY (now EUR_USD)', '--mid off (now on)'],
      ],
    ];
    for (const [args, named] of refusals) {
      const refused = await download(args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`${partial} was started with`);
      for (const text of named) expect(refused.stderr).toContain(text);
      expect(refused.stderr).toContain('run the same command again to continue it');
      expect(readFileSync(partial, 'utf8')).toBe(kept);
      expect(existsSync(file)).toBe(false);
    }
    writeFileSync(`${partial}.json`, '{"instruments": "EUR_USD"');
    const broken = await download(common(serve.url, file));
    expect(broken).toMatchObject({ code: 1, stderr: expect.stringContaining('is not the JSON this command writes') as unknown });
    writeFileSync(`${partial}.json`, '{"instruments": "EUR_USD"}');
    const wrongShape = await download(common(serve.url, file));
    expect(wrongShape).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('options.ndjson.partial.json: granularity is required') as unknown,
    });
    expect(readFileSync(partial, 'utf8')).toBe(kept);
    // Without a record (as an earlier version left it) it continues to the same file as an
    // uninterrupted run; a run with a matching record is the killed-run case above.
    rmSync(`${partial}.json`);
    expect((await download(common(serve.url, file))).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(reference);
    expect(existsSync(`${partial}.json`)).toBe(false);
  });

  it('names the cause of a refusal and leaves no file behind', async () => {
    const file = out('refused.ndjson');
    const unauthorized = await download(common(serve.url, file).map((a) => (a === MANUAL_TOKEN ? 'wrong' : a)));
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toContain('401 Unauthorized, the token was refused (check --token)');
    const badInstrument = await download([
      '--url',
      serve.url,
      '--token',
      MANUAL_TOKEN,
      '--instrument',
      'EUR_XYZ',
      '--granularity',
      'M1',
      '--from',
      FROM,
      '--to',
      TO,
      '--out',
      file,
    ]);
    expect(badInstrument.code).toBe(1);
    expect(badInstrument.stderr).toContain("candles of EUR_XYZ: HTTP 400: Invalid value specified for 'instrument'");
    const port = await closedPort();
    const unreachable = await download(common(`http://127.0.0.1:${port}`, file, '--retries', '1', '--retry-base-ms', '1'));
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
    expect(existsSync(file) || existsSync(`${file}.partial`) || existsSync(`${file}.partial.json`)).toBe(false);
    // A finished file is never overwritten.
    const done = out('whole.ndjson');
    const again = await download(common(serve.url, done));
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('already exists') as unknown });
  });

  it('refuses bad options with exit code 2', async () => {
    const file = out('never.ndjson');
    const cases: [string[], string][] = [
      [common(serve.url, file).map((a) => (a === TO ? '2023-12-31' : a)), '--from (2024-01-02T00:00:00.000000000Z) must be before --to'],
      [common(serve.url, file).map((a) => (a === 'S5' ? 'M7' : a)), '--granularity "M7" is not a v20 granularity'],
      [common(serve.url, file).map((a) => (a === FROM ? 'yesterday' : a)), '--from must be an RFC3339 datetime'],
      [common(serve.url, file, '--format', 'xml'), '--format must be ndjson or csv'],
      [
        common(serve.url, file).filter((a) => a !== '--token' && a !== MANUAL_TOKEN),
        '--token is required (or set OANDA_TOKEN or V20_TOKEN)',
      ],
      [common(serve.url, file, '--page-size', '5001'), '--page-size must be a whole number from 1 to 5000'],
      [common('ftp://x', file), '--url must be an http(s) URL'],
    ];
    for (const [args, why] of cases) {
      const result = await download(args);
      expect(result.stderr).toContain(why);
      expect(result.code).toBe(2);
    }
    expect(existsSync(file) || existsSync(`${file}.partial`) || existsSync(`${file}.partial.json`)).toBe(false);
    // The token may come from the environment.
    const env = await download(
      common(serve.url, out('env.ndjson')).filter((a) => a !== '--token' && a !== MANUAL_TOKEN),
      { OANDA_TOKEN: MANUAL_TOKEN },
    );
    expect(env.code).toBe(0);
  });

  it('exits 1 on a refused token as a process, 2 on a usage error', async () => {
    const file = out('process.ndjson');
    const refused = runCommand(['download', 'candles', ...common(serve.url, file).map((a) => (a === MANUAL_TOKEN ? 'wrong' : a))]);
    expect((await refused.exited).code).toBe(1);
    expect(refused.stderr.join('')).toContain('v20sim download: candles of EUR_USD: 401 Unauthorized');
    const usage = runCommand(['download', 'candles', '--token', 'x', '--instrument', 'EUR_USD']);
    expect((await usage.exited).code).toBe(2);
    expect(usage.stderr.join('')).toContain('v20sim download: --granularity is required');
  }, 60_000);
});
