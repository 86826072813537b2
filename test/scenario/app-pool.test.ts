import { describe, expect, it } from 'vitest';
import type { ApiOptions } from '../../src/api/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { leaseApp, releaseApp } from '../../src/scenario/app-pool.js';
import { ACCOUNT, T0 } from '../support/constants.js';

function optionsOf(baseUrl?: string): ApiOptions {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '1000' }], start: T0 });
  return { engine, tokens: [{ token: 't', accounts: '*' }], ...(baseUrl === undefined ? {} : { baseUrl }) };
}

describe("a thread's scenario apps", () => {
  it('serve the next file with the app the last one gave back, when built with the same base URL', async () => {
    const first = optionsOf();
    const lease = await leaseApp(first);
    await releaseApp(lease, first.baseUrl);
    const next = optionsOf();
    const again = await leaseApp(next);
    expect(again).toBe(lease);
    const res = await again.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}`, headers: { authorization: 'Bearer t' } });
    expect(res.json().account.balance).toBe('1000.0000');
    // Another base URL is another app.
    const elsewhere = optionsOf('http://elsewhere.test');
    const other = await leaseApp(elsewhere);
    expect(other).not.toBe(lease);
    await releaseApp(other, elsewhere.baseUrl);
    await releaseApp(again, next.baseUrl);
  });

  it('build a fresh app when the kept one was built with another option', async () => {
    const first = optionsOf('http://kept.test');
    const lease = await leaseApp(first);
    await releaseApp(lease, first.baseUrl);
    const other = { ...optionsOf('http://kept.test'), bodyLimit: 1024 };
    const fresh = await leaseApp(other);
    expect(fresh).not.toBe(lease);
    const res = await fresh.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}`, headers: { authorization: 'Bearer t' } });
    expect(res.statusCode).toBe(200);
    await releaseApp(fresh, other.baseUrl);
  });

  it('close an app that listened (a stream step) instead of keeping it', async () => {
    const options = optionsOf('http://listened.test');
    const lease = await leaseApp(options);
    await lease.app.listen({ host: '127.0.0.1', port: 0 });
    await releaseApp(lease, options.baseUrl);
    expect(lease.app.server.listening).toBe(false);
    const next = optionsOf('http://listened.test');
    const fresh = await leaseApp(next);
    expect(fresh).not.toBe(lease);
    await releaseApp(fresh, next.baseUrl);
  });
});
