/**
 * The limits and the Host rules as `serve` configures them: on by default, off with --no-limits or
 * `"limits": false`, each overridable by a flag or a config key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SERVE_LIMITS } from '../../src/api/limits.js';
import { parseServeArgs } from '../../src/cli/args.js';
import { ConfigError, checkConfig, type FileConfig, type ServeArgs } from '../../src/cli/config.js';
import { startServe, type ServeHandle } from '../../src/cli/serve.js';
import { resolveSettings } from '../../src/cli/settings.js';
import { rawExchange, rawGet } from './raw-http.js';

const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const settingsOf = (file: FileConfig, args: ServeArgs) =>
  resolveSettings(file, { host: '127.0.0.1', port: 0, token: 'tok', adminToken: 'adm', clock: 'manual', ...args }, () => 'unused');

function refusal(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('serve limits settings', () => {
  it("are OANDA's by default", () => {
    expect(settingsOf({}, {}).limits).toEqual(SERVE_LIMITS);
    expect(SERVE_LIMITS).toMatchObject({ requestsPerSecondPerConnection: 100, newConnectionsPerSecond: 2, streamsPerAccount: 20 });
  });

  it('are off with --no-limits or "limits": false', () => {
    expect(settingsOf({}, parseServeArgs(['--no-limits'])).limits).toBeUndefined();
    expect(settingsOf(checkConfig({ limits: false }, '/'), {}).limits).toBeUndefined();
  });

  it('take config keys over the defaults and --limit flags over both', () => {
    const file = checkConfig({ limits: { streamsPerAccount: 5, maxConnections: 50 } }, '/');
    const args = parseServeArgs(['--limit', 'streamsPerAccount=7', '--limit', 'newConnectionsPerSecond=0']);
    expect(settingsOf(file, args).limits).toEqual({
      ...SERVE_LIMITS,
      streamsPerAccount: 7,
      maxConnections: 50,
      newConnectionsPerSecond: 0,
    });
  });

  it('refuse unknown limits, bad values and a headers timeout beyond the request timeout', () => {
    expect(refusal(() => parseServeArgs(['--limit', 'perMinute=3'])).message).toMatch(/^options: --limit: must be name=value/);
    expect(refusal(() => parseServeArgs(['--limit', 'maxConnections=-1'])).message).toMatch(/maxConnections must be an integer/);
    expect(refusal(() => parseServeArgs(['--limit', 'maxConnections=1', '--no-limits'])).message).toMatch(
      /give either --limit or --no-limits/,
    );
    expect(refusal(() => checkConfig({ limits: { burst: 1 } }, '/')).field).toBe('limits.burst');
    expect(refusal(() => settingsOf({}, parseServeArgs(['--limit', 'headersTimeoutMs=60000']))).message).toMatch(
      /must not exceed requestTimeoutMs/,
    );
  });

  it('read --base-url and --allowed-hosts, and their config keys', () => {
    const args = parseServeArgs(['--base-url', 'https://sim.example:8443/', '--allowed-hosts', 'a.example,b.example']);
    expect(settingsOf({}, args)).toMatchObject({ baseUrl: 'https://sim.example:8443', allowedHosts: ['a.example', 'b.example'] });
    expect(settingsOf(checkConfig({ allowedHosts: '*', baseUrl: 'http://x.example' }, '/'), {})).toMatchObject({
      allowedHosts: '*',
      baseUrl: 'http://x.example',
    });
    expect(refusal(() => parseServeArgs(['--base-url', 'http://evil.example/phish?'])).message).toMatch(/--base-url: must be http/);
    expect(refusal(() => checkConfig({ baseUrl: 'ftp://x' }, '/')).field).toBe('baseUrl');
  });
});

describe('a serve process', () => {
  it('runs with the limits and the Host check on', async () => {
    const server = await startServe(settingsOf({}, {}), {
      out: () => undefined,
      err: () => undefined,
      fatal: (m) => {
        throw new Error(m);
      },
    });
    servers.push(server);
    expect(server.app.server.maxConnections).toBe(SERVE_LIMITS.maxConnections);
    expect(server.app.server.headersTimeout).toBe(SERVE_LIMITS.headersTimeoutMs);
    expect(server.app.server.keepAliveTimeout).toBe(SERVE_LIMITS.idleTimeoutMs);
    const port = Number(new URL(server.url).port);
    const ok = await rawExchange(
      port,
      rawGet('/v3/accounts', { Host: `127.0.0.1:${port}`, Authorization: 'Bearer tok', Connection: 'close' }),
    );
    expect(ok.responses[0]?.status).toBe(200);
    const forged = await rawExchange(
      port,
      rawGet('/v3/accounts', { Host: 'rebound.example', Authorization: 'Bearer tok', Connection: 'close' }),
    );
    expect(forged.responses[0]?.status).toBe(421);
  });
});
