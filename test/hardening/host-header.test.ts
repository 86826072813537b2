/**
 * Forged Host headers and origins: a Host that is not a name of the
 * server is refused (DNS rebinding), URLs never echo an unchecked Host, CORS is open on /v3 and
 * closed on /sim, and absolute-form request lines route as path-form ones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, ADMIN_TOKEN, TOKEN, createTestApi, type TestApi } from '../support/api/harness.js';
import { listeningApi, rawExchange, rawGet } from './raw-http.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const auth = { authorization: `Bearer ${TOKEN}` };
const ORDER = { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.0' } };

async function createOrder(host: string | undefined, options: Parameters<typeof createTestApi>[0] = { baseUrl: null }) {
  api = await createTestApi(options);
  return api.app.inject({
    method: 'POST',
    url: `/v3/accounts/${ACCOUNT}/orders`,
    headers: { ...auth, ...(host === undefined ? {} : { host }) },
    payload: ORDER,
  });
}

describe('the Host check', () => {
  it('refuses a Host that is not a name of the server with 421 and a v20 body; nothing changes', async () => {
    const res = await createOrder('evil.example');
    expect(res.statusCode).toBe(421);
    expect(res.json()).toEqual({ errorMessage: "The Host 'evil.example' is not a name of this server; configure it in allowedHosts" });
    expect(res.headers['location']).toBeUndefined();
    expect(res.headers['requestid']).toBeDefined();
    expect(api?.engine.account(ACCOUNT)?.state.lastTransactionID).toBe(3);
  });

  it('refuses a Host that is no host at all with 400 (RFC 9112 section 3.2) and never echoes it', async () => {
    const res = await createOrder('evil.example/phish?');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: "Invalid value specified for 'Host'" });
    expect(JSON.stringify(res.headers)).not.toContain('phish');
  });

  it.each(['localhost:80', 'localhost', '127.0.0.1:8080', '[::1]:8080', 'app.localhost:3000', 'LOCALHOST:80'])(
    'answers the loopback name %s and builds Location from it',
    async (host) => {
      const res = await createOrder(host);
      expect(res.statusCode).toBe(201);
      expect(res.headers['location']).toBe(`http://${host}/v3/accounts/${ACCOUNT}/orders/4`);
    },
  );

  it('answers the configured base URL host and configured allowed hosts; URLs use the base URL', async () => {
    const res = await createOrder('api.v20sim.test:443', { baseUrl: 'https://api.v20sim.test', allowedHosts: ['proxy.example'] });
    expect(res.statusCode).toBe(201);
    expect(res.headers['location']).toBe(`https://api.v20sim.test/v3/accounts/${ACCOUNT}/orders/4`);
    const viaProxy = await api?.app.inject({
      method: 'GET',
      url: `/v3/accounts/${ACCOUNT}/summary`,
      headers: { ...auth, host: 'Proxy.Example' },
    });
    expect(viaProxy?.statusCode).toBe(200);
  });

  it("with allowedHosts '*' any Host is answered but never echoed: URLs use the address the client connected to", async () => {
    const server = await listeningApi({ baseUrl: null, allowedHosts: '*' });
    api = server.api;
    const body = JSON.stringify(ORDER);
    const text = `POST /v3/accounts/${ACCOUNT}/orders HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const { responses } = await rawExchange(server.port, text);
    expect(responses[0]?.status).toBe(201);
    expect(responses[0]?.headers['location']).toBe(`http://127.0.0.1:${server.port}/v3/accounts/${ACCOUNT}/orders/4`);
  });

  it('on a listening server the listen address is a name of it and a rebinding name is not', async () => {
    const server = await listeningApi({ baseUrl: null });
    api = server.api;
    const ours = await rawExchange(
      server.port,
      rawGet(`/v3/accounts/${ACCOUNT}/summary`, { Host: `127.0.0.1:${server.port}`, ...auth, Connection: 'close' }),
    );
    expect(ours.responses[0]?.status).toBe(200);
    const rebound = await rawExchange(
      server.port,
      rawGet(`/v3/accounts/${ACCOUNT}/summary`, { Host: `attacker.example:${server.port}`, ...auth, Connection: 'close' }),
    );
    expect(rebound.responses[0]?.status).toBe(421);
    expect(JSON.parse(rebound.responses[0]?.body ?? '')).toHaveProperty('errorMessage');
  });
});

describe('absolute-form request lines', () => {
  it('route as their path, with the authority as the Host', async () => {
    const server = await listeningApi({ baseUrl: null });
    api = server.api;
    const line = rawGet(`http://127.0.0.1:${server.port}/v3/accounts`, { Host: `127.0.0.1:${server.port}`, ...auth, Connection: 'close' });
    const { responses } = await rawExchange(server.port, line);
    expect(responses[0]?.status).toBe(200);
    expect(JSON.parse(responses[0]?.body ?? '')).toHaveProperty('accounts');
  });

  it('a foreign authority is refused like a foreign Host (RFC 9112 section 3.2.2: the authority wins)', async () => {
    const server = await listeningApi({ baseUrl: null });
    api = server.api;
    const line = rawGet('http://evil.example/v3/accounts', { Host: `127.0.0.1:${server.port}`, ...auth, Connection: 'close' });
    const { responses } = await rawExchange(server.port, line);
    expect(responses[0]?.status).toBe(421);
  });

  it('a query-only absolute form routes to the root path', async () => {
    const server = await listeningApi({ baseUrl: null });
    api = server.api;
    const line = rawGet(`http://127.0.0.1:${server.port}?x=1`, { Host: `127.0.0.1:${server.port}`, Connection: 'close' });
    const { responses } = await rawExchange(server.port, line);
    expect(responses[0]?.status).toBe(404);
    expect(JSON.parse(responses[0]?.body ?? '')).toEqual({ errorMessage: 'The requested resource was not found.' });
  });
});

describe('CORS', () => {
  const origin = 'http://page.example';

  it('is open on /v3, as OANDA', async () => {
    api = await createTestApi();
    const res = await api.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary`, headers: { ...auth, origin } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const pre = await api.app.inject({
      method: 'OPTIONS',
      url: `/v3/accounts/${ACCOUNT}/orders`,
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('PUT, PATCH, POST, GET, OPTIONS, DELETE');
    expect(pre.headers['access-control-allow-headers']).toBe(
      'Authorization, Content-Type, Accept-Datetime-Format, OANDA-Agent, ClientRequestID',
    );
    expect(pre.headers['content-length']).toBe('0');
  });

  it('costs nothing without an Origin header (not a browser): no CORS headers, an OPTIONS request gets an empty 204', async () => {
    api = await createTestApi();
    const res = await api.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}/summary`, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const options = await api.app.inject({ method: 'OPTIONS', url: `/v3/accounts/${ACCOUNT}/orders` });
    expect(options.statusCode).toBe(204);
    expect(options.body).toBe('');
    expect(Object.keys(options.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const error = await api.app.inject({
      method: 'GET',
      url: `/v3/accounts/${ACCOUNT}/summary`,
      headers: { ...auth, origin: 'http://page.example', authorization: 'Bearer wrong' },
    });
    // With an Origin, even an error is readable by the page.
    expect(error.statusCode).toBe(401);
    expect(error.headers['access-control-allow-origin']).toBe('*');
  });

  it('is closed on /sim: no Access-Control-Allow-Origin, preflight refused with a v20 405', async () => {
    api = await createTestApi();
    const res = await api.app.inject({ method: 'GET', url: '/sim/clock', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, origin } });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const missing = await api.app.inject({ method: 'GET', url: '/sim/nothing', headers: { origin } });
    expect(missing.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await api.app.inject({
      method: 'OPTIONS',
      url: '/sim/clock/advance',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'Authorization' },
    });
    expect(pre.statusCode).toBe(405);
    expect(pre.json()).toEqual({ errorMessage: 'The method is not allowed for the requested resource.' });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['requestid']).toBeDefined();
  });
});
