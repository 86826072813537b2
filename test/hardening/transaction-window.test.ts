/**
 * A server with a tiny transaction window (5 in memory per account) answers every read of older
 * transactions from its file journal exactly as a server that keeps them all: the same bytes from
 * GET transactions (time windows, pages, type filters), idrange, sinceid, transactions/{id},
 * changes and /sim/journal, before and after a restart (src/account/transaction-log.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, startServeProcess, type ServeProcess } from '../support/serve-process.js';

const A = '101-004-1000000-001';
const TOKEN = 'window-token';
const ADMIN = 'window-admin';
const START = Date.UTC(2024, 0, 2, 10) / 1000;
const WINDOW = 5;

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

let root: string;
const servers: ServeProcess[] = [];

/** A serve process on a fresh data dir, manual clock, no generated prices. */
async function serve(name: string, transactionsInMemory: number, dataDir = join(root, name)): Promise<ServeProcess> {
  const config = join(root, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      accounts: [{ id: A, currency: 'USD', balance: '100000' }],
      tokens: [{ token: TOKEN, accounts: '*' }],
      adminToken: ADMIN,
      clock: 'manual',
      start: iso(START),
      generator: false,
      transactionsInMemory,
    }),
  );
  const server = await startServeProcess(['--config', config, '--data-dir', dataDir]);
  servers.push(server);
  return server;
}

async function call(
  server: ServeProcess,
  method: string,
  path: string,
  body?: unknown,
  token = TOKEN,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** The last tick the session pushed, pushed again after a restart so prices (and P/L) agree. */
let lastTick: unknown;

/** The same deterministic session on a server: ticks a minute apart, orders, cancels, rejects, configure. */
async function session(server: ServeProcess): Promise<number> {
  let last = 0;
  for (let step = 0; last < 50; step += 1) {
    const bid = (1.1 + (step % 7) * 0.0003).toFixed(5);
    lastTick = { ticks: [{ instrument: 'EUR_USD', time: iso(START + 60 * (step + 1)), bid, ask: (Number(bid) + 0.0002).toFixed(5) }] };
    expect((await call(server, 'POST', '/sim/ticks', lastTick, ADMIN)).status).toBe(200);
    const orders = `/v3/accounts/${A}/orders`;
    const kind = step % 5;
    let result;
    if (kind === 0 || kind === 3)
      result = await call(server, 'POST', orders, {
        order: { type: 'MARKET', instrument: 'EUR_USD', units: step % 2 === 0 ? '100' : '-60' },
      });
    else if (kind === 1)
      result = await call(server, 'POST', orders, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000' } });
    else if (kind === 2) {
      const created = JSON.parse((await call(server, 'GET', `${orders}?state=PENDING&count=1`)).text) as { orders: { id: string }[] };
      result = await call(server, 'PUT', `${orders}/${created.orders[0]?.id ?? '1'}/cancel`);
    } else if (step % 2 === 0) result = await call(server, 'PATCH', `/v3/accounts/${A}/configuration`, { alias: `step ${step}` });
    else result = await call(server, 'POST', orders, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '0' } });
    last = Number((JSON.parse(result.text) as { lastTransactionID: string }).lastTransactionID);
  }
  return last;
}

/** Every read of transactions, old and new; `now` = false leaves out those that depend on the clock or prices. */
function reads(last: number, now = true): string[] {
  const t = `/v3/accounts/${A}/transactions`;
  const mid = iso(START + 60 * 8);
  const paths = [
    `${t}?from=${iso(START)}&to=${iso(START + 60 * 40)}`,
    `${t}?from=${iso(START)}&to=${iso(START + 60 * 40)}&pageSize=7`,
    `${t}?from=${mid}&to=${iso(START + 60 * 20)}&type=ORDER_FILL,ADMIN`,
    `${t}?from=${iso(START)}&to=${mid}&type=LIMIT_ORDER`,
    `${t}/idrange?from=1&to=${last}`,
    `${t}/idrange?from=3&to=9`,
    `${t}/idrange?from=${last - 6}&to=${last + 10}`,
    `${t}/idrange?from=1&to=${last}&type=MARKET_ORDER,ORDER_CANCEL`,
    `${t}/sinceid?id=0`,
    `${t}/sinceid?id=1`,
    `${t}/sinceid?id=${last - 7}`,
    `${t}/sinceid?id=${last}`,
    `${t}/sinceid?id=2&type=ORDER`,
    `${t}/${last + 1}`,
    ...Array.from({ length: last }, (_, i) => `${t}/${i + 1}`),
    `/sim/journal/${A}`,
  ];
  if (now) {
    paths.push(`${t}`, `${t}?type=FUNDING`);
    for (const since of [0, 1, 10, last - 20, last - 4, last]) paths.push(`/v3/accounts/${A}/changes?sinceTransactionID=${since}`);
  }
  return paths;
}

async function answers(server: ServeProcess, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const r = await call(server, 'GET', path, undefined, path.startsWith('/sim') ? ADMIN : TOKEN);
    // Page URLs name the server's own address: the two servers differ only in their port.
    out.push(`${path} ${r.status} ${r.text.replaceAll(server.url, 'http://server')}`);
  }
  return out;
}

let windowed: ServeProcess;
let whole: ServeProcess;
let last: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'v20sim-window-'));
  [windowed, whole] = await Promise.all([serve('windowed', WINDOW), serve('whole', 1_000_000_000)]);
  const [a, b] = await Promise.all([session(windowed), session(whole)]);
  expect(a).toBe(b);
  last = a;
}, 120_000);

afterAll(() => {
  killAll();
  rmSync(root, { recursive: true, force: true });
});

describe(`a server keeping ${WINDOW} transactions in memory`, () => {
  it('answers every read of old and new transactions with the same bytes as one keeping them all, also after a restart', async () => {
    expect(last).toBeGreaterThanOrEqual(50);
    const paths = reads(last);
    const [got, want] = await Promise.all([answers(windowed, paths), answers(whole, paths)]);
    expect(got).toEqual(want);
    // The reads did read old transactions: transaction 1 is the account's CREATE.
    expect(got.find((line) => line.startsWith(`/v3/accounts/${A}/transactions/1 `))).toMatch(/"type":"CREATE"/);

    // Then the same after a restart, replaying its journal into a window of 5. One test, not two:
    // the restart ends the server the reads above ask.
    windowed.child.kill('SIGTERM');
    await windowed.exited;
    const restarted = await serve('restarted', WINDOW, join(root, 'windowed'));
    expect((await call(restarted, 'POST', '/sim/ticks', lastTick, ADMIN)).status).toBe(200);
    const after = reads(last, false);
    for (const since of [1, last - 20, last]) after.push(`/v3/accounts/${A}/changes?sinceTransactionID=${since}`);
    const [gotAfter, wantAfter] = await Promise.all([answers(restarted, after), answers(whole, after)]);
    expect(gotAfter).toEqual(wantAfter);
  }, 240_000);
});
