/**
 * Fault injection, quotes across a restart. Expected: after a clean stop, and after a SIGKILL once
 * the quotes file was written, the restarted server has the latest price at once, and the first
 * market order after the restart fills (no MARKET_ORDER cancelled for want of a price).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, startServeProcess, type ServeProcess } from '../support/serve-process.js';
import { ADMIN, call, configFile, removeTempDirs, serveArgs, tempDir, USD } from './support.js';

afterAll(() => {
  killAll();
  removeTempDirs();
});

const QUOTE = { instrument: 'EUR_USD', time: '2024-01-02T00:00:05.000000000Z', bid: '1.23450', ask: '1.23470' };

async function firstOrderFills(server: ServeProcess): Promise<void> {
  const pricing = await call(`${server.url}/v3/accounts/${USD}/pricing?instruments=EUR_USD`, 'GET');
  const price = (pricing.json['prices'] as { bids: { price: string }[]; asks: { price: string }[] }[])[0];
  expect(price?.bids[0]?.price).toBe('1.23450');
  expect(price?.asks[0]?.price).toBe('1.23470');
  const order = await call(`${server.url}/v3/accounts/${USD}/orders`, 'POST', {
    order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' },
  });
  expect(order.status).toBe(201);
  expect(order.json['orderFillTransaction']).toMatchObject({ price: '1.23470' });
  expect(order.json['orderCancelTransaction']).toBeUndefined();
}

describe('the latest quotes survive a restart', () => {
  it('after a clean stop', async () => {
    const dir = tempDir();
    const args = serveArgs(configFile(dir), path.join(dir, 'data'));
    const first = await startServeProcess(args);
    await call(`${first.url}/sim/ticks`, 'POST', { ticks: [QUOTE] }, ADMIN);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    const second = await startServeProcess(args);
    // The clock resumes at the quote, where the stopped server was.
    expect((await call(`${second.url}/sim/clock`, 'GET', undefined, ADMIN)).json).toEqual({ time: QUOTE.time });
    await firstOrderFills(second);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('after a SIGKILL, once the quotes file was written (at most one interval is lost)', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const args = serveArgs(configFile(dir), dataDir);
    const first = await startServeProcess(args);
    await call(`${first.url}/sim/ticks`, 'POST', { ticks: [QUOTE] }, ADMIN);
    const file = path.join(dataDir, 'quotes.json');
    // Waits for the periodic write (no timing assumption: it polls for the outcome).
    while (!existsSync(file) || !readFileSync(file, 'utf8').includes('1.2345')) await sleep(50);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServeProcess(args);
    await firstOrderFills(second);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
