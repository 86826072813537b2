/**
 * `v20sim serve` as a real process: the defaults banner, exit code 2 on a bad config, and crash
 * recovery (SIGKILL under load, restart on the same data dir, nothing acknowledged is lost).
 * Loopback only; every child is killed and every temp dir removed in afterAll.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountView } from '../../src/account/views.js';
import type { Transaction } from '../../src/domain/transactions.js';
import { createEngine } from '../../src/engine/engine.js';
import { MemoryJournal } from '../../src/journal/journal.js';
import { jsonCall, killAll, runCommand, startServeProcess, type ServeProcess } from '../support/serve-process.js';

const dirs: string[] = [];

afterAll(() => {
  killAll();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-cli-'));
  dirs.push(dir);
  return dir;
}

const TOKEN = 'crash-test-token';
const ADMIN = 'crash-test-admin';
const USD = '101-004-1000000-001';
const EUR = '101-004-1000000-002';
const T1 = '2024-01-02T00:00:01.000000000Z';
const TICK = { instrument: 'EUR_USD', time: T1, bid: '1.10000', ask: '1.10020' };

const call = (url: string, method: string, body?: unknown, token = TOKEN): Promise<{ status: number; json: Record<string, unknown> }> =>
  jsonCall(url, method, token, body);

/** Every transaction object in a v20 response body. */
function transactionsOf(body: Record<string, unknown>): Transaction[] {
  const out: Transaction[] = [];
  for (const value of Object.values(body)) {
    if (typeof value === 'object' && value !== null && 'id' in value && 'type' in value && 'accountID' in value)
      out.push(value as Transaction);
  }
  return out;
}

async function journalOf(server: ServeProcess, id: string): Promise<Transaction[]> {
  const res = await fetch(`${server.url}/sim/journal/${id}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Transaction);
}

describe('v20sim serve (process)', () => {
  it('starts on embedded defaults and prints base URL, stream URL, accounts, token and a curl line', async () => {
    const server = await startServeProcess([]);
    await server.waitFor(/curl -sN/);
    const text = server.stdout.join('\n');
    expect(text).toContain(`base URL:    ${server.url}`);
    expect(text).toContain(`stream URL:  ${server.url}`);
    expect(text).toMatch(/101-004-1000000-001 {2}USD {2}Demo USD/);
    expect(text).toMatch(/101-004-1000000-002 {2}EUR {2}Demo EUR/);
    expect(text).toContain('seeded generator (seed 1) for EUR_USD, GBP_USD, USD_JPY, USD_CHF, AUD_USD, USD_CAD, NZD_USD');
    const token = /token: {7}([0-9a-f]{48})/.exec(text)?.[1] as string;
    expect(token).toBeDefined();
    const curl = server.stdout.find((l) => l.includes('curl -s -H') && l.endsWith('/summary')) as string;
    expect(curl).toBe(`    curl -s -H "Authorization: Bearer ${token}" ${server.url}/v3/accounts/${USD}/summary`);
    // The printed token works, and generated prices arrive in real time.
    const summary = await call(`${server.url}/v3/accounts/${USD}/summary`, 'GET', undefined, token);
    expect(summary.status).toBe(200);
    let price: { status: number; json: Record<string, unknown> } | undefined;
    for (let i = 0; i < 50; i += 1) {
      price = await call(`${server.url}/v3/accounts/${USD}/pricing?instruments=EUR_USD`, 'GET', undefined, token);
      if (price.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(price?.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('refuses an invalid config with exit code 2 and a message naming the field', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ accounts: [{ id: USD, currency: 'USD', marginRate: 'lots' }] }));
    const p = runCommand(['serve', '--config', file, '--port', '0']);
    expect((await p.exited).code).toBe(2);
    expect(p.stderr.join('')).toContain(`v20sim: config ${file}: accounts[0].marginRate: must be a decimal string in (0, 1]`);
    expect(p.stdout).toEqual([]);
  });

  it('loses no acknowledged transaction when killed under load, and restores the accounts exactly', async () => {
    const dir = tempDir();
    const args = ['--data-dir', dir, '--clock', 'manual', '--token', TOKEN, '--admin-token', ADMIN];

    // 1. A quiet kill: the restored account equals the one before, field for field.
    const first = await startServeProcess(args);
    expect((await call(`${first.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN)).status).toBe(200);
    await call(`${first.url}/v3/accounts/${USD}/orders`, 'POST', {
      order: {
        type: 'MARKET',
        instrument: 'EUR_USD',
        units: '1000',
        takeProfitOnFill: { price: '1.20000' },
        stopLossOnFill: { distance: '0.01000' },
      },
    });
    await call(`${first.url}/v3/accounts/${EUR}/orders`, 'POST', {
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-700', price: '1.15000' },
    });
    await call(
      `${first.url}/sim/accounts`,
      'POST',
      { id: '101-004-1000000-003', currency: 'GBP', hedgingEnabled: true, balance: '500' },
      ADMIN,
    );
    const before = await call(`${first.url}/v3/accounts/${USD}`, 'GET');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServeProcess(args);
    expect(await call(`${second.url}/sim/clock`, 'GET', undefined, ADMIN)).toEqual({ status: 200, json: { time: T1 } });
    await call(`${second.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
    expect(await call(`${second.url}/v3/accounts/${USD}`, 'GET')).toEqual(before);
    // The account created through the control API came back with its hedging flag.
    const third = (await call(`${second.url}/v3/accounts/101-004-1000000-003/summary`, 'GET')).json['account'] as Record<string, unknown>;
    expect(third).toMatchObject({ currency: 'GBP', hedgingEnabled: true, balance: '500.0000' });

    // 2. Kill under load: many clients, SIGKILL while requests are in flight.
    const acked = new Map<string, Transaction>();
    const pending: string[] = [];
    let stop = false;
    let responses = 0;
    const KILL_AFTER = 300;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i += 1) {
        const account = (w + i) % 2 === 0 ? USD : EUR;
        const units = String(((w * 37 + i * 11) % 900) + 1);
        let body: unknown;
        let url = `${second.url}/v3/accounts/${account}/orders`;
        let method = 'POST';
        if (i % 5 === 3 && pending.length > 0) {
          url = `${second.url}/v3/accounts/${account}/orders/${pending.shift() as string}/cancel`;
          method = 'PUT';
        } else if (i % 3 === 1) {
          body = {
            order: {
              type: 'LIMIT',
              instrument: 'EUR_USD',
              units: i % 2 === 0 ? units : `-${units}`,
              price: i % 2 === 0 ? '1.05000' : '1.15000',
            },
          };
        } else {
          body = {
            order: {
              type: 'MARKET',
              instrument: 'EUR_USD',
              units: i % 2 === 0 ? units : `-${units}`,
              ...(i % 4 === 0 ? { stopLossOnFill: { distance: '0.05000' } } : {}),
            },
          };
        }
        let result: { status: number; json: Record<string, unknown> };
        try {
          result = await call(url, method, body);
        } catch {
          return; // the server died with this request in flight: not acknowledged
        }
        if (stop) {
          // Received after the kill was sent: still an answer the server gave, so still acknowledged.
        }
        for (const tx of transactionsOf(result.json)) acked.set(`${tx.accountID}#${tx.id}`, tx);
        const created = result.json['orderCreateTransaction'] as { id?: string; type?: string } | undefined;
        if (created?.type === 'LIMIT_ORDER' && created.id !== undefined && account === USD) pending.push(created.id);
        responses += 1;
        if (responses === KILL_AFTER) {
          stop = true;
          second.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));
    expect((await second.exited).signal).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThan(KILL_AFTER);

    // A write torn by the kill (simulated: SIGKILL rarely lands inside a write) is moved aside.
    const usdFile = path.join(dir, `${USD}.ndjson`);
    // The committed length, not the file's: the kill itself may have left an uncommitted batch.
    // The commit record: the committed length (20 digits), the last acknowledged ID, a CRC-32C.
    const size = Number(readFileSync(path.join(dir, `${USD}.commit`), 'utf8').slice(0, 20));
    appendFileSync(usdFile, '{"type":"ORDER_FILL","orderID":"');

    const restarted = await startServeProcess(args);
    const warning = restarted.stderr.join('');
    expect(warning).toContain(`journal ${usdFile}: an unfinished write after the last committed batch at byte ${size}`);
    expect(existsSync(`${usdFile}.torn-${size}`)).toBe(true);

    for (const id of [USD, EUR]) {
      const journal = await journalOf(restarted, id);
      // IDs are consecutive from 1, and every acknowledged transaction is there, byte for byte.
      expect(journal.map((t) => t.id)).toEqual(journal.map((_, i) => String(i + 1)));
      const byId = new Map(journal.map((t) => [t.id, t]));
      for (const [key, tx] of acked) if (key.startsWith(`${id}#`)) expect(byId.get(tx.id)).toEqual(tx);
      // The account served is the fold of that journal.
      const reference = new MemoryJournal();
      reference.append(id, journal);
      const engine = createEngine({
        accounts: [{ id, currency: id === USD ? 'USD' : 'EUR' }],
        journal: reference,
        start: Date.parse(T1) * 1000,
      });
      engine.pushTick({ instrument: 'EUR_USD', time: Date.parse(T1) * 1000, bid: 1.1, ask: 1.1002 });
      await call(`${restarted.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
      const served = await call(`${restarted.url}/v3/accounts/${id}`, 'GET');
      expect(served.json['account']).toEqual(JSON.parse(JSON.stringify(accountView(engine.account(id)!.state))));
      expect(served.json['lastTransactionID']).toBe(journal.at(-1)?.id);
    }
    const acknowledgedUsd = [...acked.keys()].filter((k) => k.startsWith(`${USD}#`)).length;
    expect(acknowledgedUsd).toBeGreaterThan(0);

    // A clean stop and one more start: the same state again, and the run log has every start.
    const state = await call(`${restarted.url}/v3/accounts/${EUR}`, 'GET');
    restarted.child.kill('SIGTERM');
    expect((await restarted.exited).code).toBe(0);
    const last = await startServeProcess(args);
    await call(`${last.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
    expect(await call(`${last.url}/v3/accounts/${EUR}`, 'GET')).toEqual(state);
    last.child.kill('SIGTERM');
    await last.exited;
    const runs = readFileSync(path.join(dir, 'runs.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(runs).toHaveLength(4);
    for (const r of runs) expect(r).toMatchObject({ seed: 1, clock: 'manual', configDigest: runs[0]?.['configDigest'] });
    expect(readdirSync(dir)).not.toContain('v20sim.lock');
  });
});
