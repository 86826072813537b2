/**
 * `v20sim report` on a served session: a `v20sim serve --data-dir` process trades on loopback,
 * then the report command turns the account's journal (the data-dir file, or GET /sim/journal)
 * into the backtest's report files. Bad input gets a clear message and a non-zero exit.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRfc3339 } from '../../src/domain/time.js';
import { killAll, runCommand, startServeWithConfig, type ServeProcess } from '../support/serve-process.js';

const TOKEN = 'report-token';
const ADMIN = 'report-admin';
const ACCOUNT = '101-004-8000000-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-report-'));
let server: ServeProcess;

async function call(method: string, url: string, body?: unknown, token = TOKEN): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return url.startsWith('/sim/journal') ? { text } : (JSON.parse(text) as Record<string, unknown>);
}

const quote = (seconds: number, bid: string, ask: string): unknown => ({
  instrument: 'EUR_USD',
  time: formatRfc3339(T0 + seconds * 1_000_000),
  bid,
  ask,
});

/** Runs `v20sim report` to its end. */
async function report(args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> {
  const p = runCommand(['report', ...args]);
  const { code } = await p.exited;
  return { code, out: p.stdout.join('\n'), err: p.stderr.join('') };
}

beforeAll(async () => {
  server = await startServeWithConfig(dir, {
    accounts: [{ id: ACCOUNT, currency: 'USD', balance: '10000' }],
    tokens: [TOKEN],
    adminToken: ADMIN,
    clock: 'manual',
    start: formatRfc3339(T0),
    dataDir: path.join(dir, 'state'),
  });
  const sim = (ticks: unknown[]): Promise<unknown> => call('POST', '/sim/ticks', { ticks }, ADMIN);
  await sim([quote(1, '1.10000', '1.10010')]);
  const orders = `/v3/accounts/${ACCOUNT}/orders`;
  await call('POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.10100' } } });
  await call('POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-2000', price: '1.10050' } });
  await sim([quote(60, '1.10060', '1.10070'), quote(120, '1.10110', '1.10120'), quote(180, '1.09990', '1.10000')]);
  await call('PUT', `/v3/accounts/${ACCOUNT}/positions/EUR_USD/close`, { shortUnits: 'ALL' });
}, 60_000);

afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('v20sim report', () => {
  it('writes the report files of a served account from its data-dir journal', async () => {
    const out = path.join(dir, 'out');
    const r = await report(['--journal', path.join(dir, 'state', `${ACCOUNT}.ndjson`), '--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^${ACCOUNT}: \\d+ transactions, 2 trades, net P/L -?\\d`));
    for (const name of ['transactions.ndjson', 'trades.csv', 'equity.csv', 'report.json', 'report.html'])
      expect(existsSync(path.join(out, name)), name).toBe(true);
    const trades = readFileSync(path.join(out, 'trades.csv'), 'utf8').trim().split('\n');
    expect(trades).toHaveLength(3);
    // The long trade is closed by the sell LIMIT (which opens the short), the short by the position close.
    expect(trades[1]).toMatch(/^\d+,EUR_USD,LONG,1000,.*,CLOSED,.*,LIMIT_ORDER,59$/);
    expect(trades[2]).toMatch(/^\d+,EUR_USD,SHORT,1000,.*,CLOSED,/);
    const summary = (await call('GET', `/v3/accounts/${ACCOUNT}/summary`))['account'] as Record<string, unknown>;
    const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      metrics: Record<string, unknown>;
      run: Record<string, unknown>;
    };
    expect(json.metrics['finalBalance']).toBe(Number(summary['balance']));
    expect(json.metrics['closedTrades']).toBe(2);
    expect(json.run['initialBalance']).toBe('10000.0000');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('reads what GET /sim/journal exports the same way', async () => {
    const exported = path.join(dir, 'exported.ndjson');
    writeFileSync(exported, ((await call('GET', `/sim/journal/${ACCOUNT}`, undefined, ADMIN)) as { text: string }).text);
    const a = path.join(dir, 'from-export');
    const b = path.join(dir, 'from-file');
    expect((await report(['--journal', exported, '--out', a])).code).toBe(0);
    expect((await report(['--journal', path.join(dir, 'state', `${ACCOUNT}.ndjson`), '--out', b])).code).toBe(0);
    expect(readFileSync(path.join(a, 'report.json'), 'utf8')).toBe(readFileSync(path.join(b, 'report.json'), 'utf8'));
  });

  it('refuses missing, cut and foreign journals with a message and a non-zero exit', async () => {
    expect(await report([])).toMatchObject({ code: 2, err: expect.stringContaining('--journal FILE is required') });
    expect(await report(['--journal', path.join(dir, 'nope.ndjson')])).toMatchObject({
      code: 1,
      err: expect.stringContaining('cannot read'),
    });
    const cut = path.join(dir, 'cut.ndjson');
    const text = readFileSync(path.join(dir, 'state', `${ACCOUNT}.ndjson`), 'utf8');
    writeFileSync(cut, text.slice(0, text.length - 20));
    const r = await report(['--journal', cut, '--out', path.join(dir, 'cut-out')]);
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/cut\.ndjson:\d+: not a JSON line \(the last line is cut/) });
    expect(existsSync(path.join(dir, 'cut-out'))).toBe(false);
    const foreign = path.join(dir, 'foreign.ndjson');
    writeFileSync(foreign, text.split('\n').slice(1).join('\n'));
    expect(await report(['--journal', foreign])).toMatchObject({
      code: 1,
      err: expect.stringContaining("does not start with the account's CREATE"),
    });
  });
});
