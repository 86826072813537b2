/**
 * Fault injection, account creation: a create that fails at the disk leaves no settings behind,
 * the server goes on, a later create of the same ID wins, and a restart shows its settings.
 * Expected: 500 with a v20 errorMessage, no record in accounts.ndjson, then 201 and the new settings.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, startServeProcess, type ServeProcess } from '../support/serve-process.js';
import { ADMIN, call, configFile, removeTempDirs, serveArgs, tempDir, TICK, USD } from './support.js';

afterAll(() => {
  killAll();
  removeTempDirs();
});

const NEW = '101-004-1000000-007';

async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

function recorded(dataDir: string): unknown[] {
  return readFileSync(path.join(dataDir, 'accounts.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

/** After a restart: the account's settings as served, and a sell after a buy on a netting account reduces the trade (hedging would open a second). */
async function checkNettingEur(args: string[]): Promise<void> {
  const server = await startServeProcess(args);
  const summary = (await call(`${server.url}/v3/accounts/${NEW}/summary`, 'GET')).json['account'] as Record<string, unknown>;
  expect(summary).toMatchObject({ currency: 'EUR', hedgingEnabled: false, alias: '' });
  await call(`${server.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
  for (const units of ['100', '-50'])
    expect(
      (await call(`${server.url}/v3/accounts/${NEW}/orders`, 'POST', { order: { type: 'MARKET', instrument: 'EUR_USD', units } })).status,
    ).toBe(201);
  const trades = (await call(`${server.url}/v3/accounts/${NEW}/openTrades`, 'GET')).json['trades'] as { currentUnits: string }[];
  expect(trades.map((t) => t.currentUnits)).toEqual(['50']);
  await stop(server);
}

describe('a failed account creation', () => {
  it('an injected write error (the journal cannot be opened): 500, no stale settings, the server goes on, the next create wins', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const args = serveArgs(configFile(dir), dataDir);
    const server = await startServeProcess(args);
    // The account's journal path is taken by a directory: opening it for append fails (EISDIR).
    mkdirSync(path.join(dataDir, `${NEW}.ndjson`));
    const failed = await call(
      `${server.url}/sim/accounts`,
      'POST',
      { id: NEW, currency: 'USD', hedgingEnabled: true, alias: 'old' },
      ADMIN,
    );
    expect(failed.status).toBe(500);
    expect(failed.json['errorMessage']).toMatch(new RegExp(`^The Account ${NEW} could not be recorded \\(EISDIR`));
    expect(recorded(dataDir)).toEqual([{ id: USD, currency: 'USD' }]);
    expect((await call(`${server.url}/v3/accounts/${USD}/summary`, 'GET')).status).toBe(200);
    expect((await call(`${server.url}/sim/journal/${NEW}`, 'GET', undefined, ADMIN)).status).not.toBe(200);

    rmSync(path.join(dataDir, `${NEW}.ndjson`), { recursive: true });
    const created = await call(`${server.url}/sim/accounts`, 'POST', { id: NEW, currency: 'EUR', hedgingEnabled: false }, ADMIN);
    expect(created.status).toBe(201);
    await stop(server);
    await checkNettingEur(args);
  });

  it('a file-size limit (ulimit -f, as a full disk): EFBIG answered as 500, nothing half-written; after a restart the next create wins', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    // The configured account's journal (CREATE only) fits in one 512-byte block; a new account with a deposit and an alias does not.
    const args = serveArgs(configFile(dir, [{ id: USD, currency: 'USD', balance: '0' }]), dataDir);
    const limited = await startServeProcess(args, { fileSizeBlocks: 1 });
    const failed = await call(
      `${limited.url}/sim/accounts`,
      'POST',
      { id: NEW, currency: 'USD', hedgingEnabled: true, alias: 'hedged' },
      ADMIN,
    );
    expect(failed.status).toBe(500);
    expect(failed.json['errorMessage']).toMatch(/could not be recorded \(EFBIG/);
    expect(recorded(dataDir)).toEqual([{ id: USD, currency: 'USD', balance: '0' }]);
    // Whatever reached the journal was cut back: no half-opened account.
    expect(readFileSync(path.join(dataDir, `${NEW}.ndjson`)).length).toBe(0);
    expect((await call(`${limited.url}/v3/accounts/${USD}/summary`, 'GET')).status).toBe(200);
    await stop(limited);

    const server = await startServeProcess(args);
    expect((await call(`${server.url}/v3/accounts/${NEW}/summary`, 'GET')).status).not.toBe(200);
    const created = await call(`${server.url}/sim/accounts`, 'POST', { id: NEW, currency: 'EUR' }, ADMIN);
    expect(created.status).toBe(201);
    await stop(server);
    await checkNettingEur(args);
  });
});
