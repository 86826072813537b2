/**
 * What Node and the router refuse before any route, answered as v20 does: a JSON body with an
 * errorMessage, never Node's bare text or a status v20 never gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, TOKEN, type TestApi } from '../support/api/harness.js';
import { createTestApi } from '../support/api/harness.js';
import { listeningApi, rawExchange, rawGet } from './raw-http.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const auth = { authorization: `Bearer ${TOKEN}` };

describe("Node's own refusals", () => {
  it('a malformed header line gets 400 with a v20 body and a RequestID, then the connection closes', async () => {
    const server = await listeningApi();
    api = server.api;
    const text = `GET /v3/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nThis is not a header\r\n\r\n`;
    // Read until the server hangs up: it must, after a framing error.
    const { responses, closedByServer } = await rawExchange(server.port, text, Number.POSITIVE_INFINITY);
    expect(responses).toHaveLength(1);
    const [res] = responses;
    expect(res?.status).toBe(400);
    expect(res?.headers['content-type']).toBe('application/json');
    expect(res?.headers['requestid']).toMatch(/^\d+$/);
    expect(JSON.parse(res?.body ?? '')).toEqual({ errorMessage: 'The request is not valid HTTP' });
    expect(closedByServer).toBe(true);
  });

  it('a request line that is not HTTP gets the same v20 400', async () => {
    const server = await listeningApi();
    api = server.api;
    const { responses } = await rawExchange(server.port, 'HELLO THERE\r\n\r\n');
    expect(responses[0]?.status).toBe(400);
    expect(JSON.parse(responses[0]?.body ?? '')).toHaveProperty('errorMessage');
  });

  it('an HTTP/1.1 request without Host gets 400 with a v20 body (RFC 9112 section 3.2); HTTP/1.0 may omit it', async () => {
    const server = await listeningApi({ baseUrl: null });
    api = server.api;
    const missing = await rawExchange(
      server.port,
      `GET /v3/accounts HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    expect(missing.responses[0]?.status).toBe(400);
    expect(JSON.parse(missing.responses[0]?.body ?? '')).toEqual({ errorMessage: "Invalid value specified for 'Host'" });
    const old = await rawExchange(server.port, `GET /v3/accounts HTTP/1.0\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
    expect(old.responses[0]?.status).toBe(200);
  });

  it('headers over 16 KiB get 431 with a v20 body', async () => {
    const server = await listeningApi();
    api = server.api;
    const { responses } = await rawExchange(
      server.port,
      rawGet('/v3/accounts', { Host: '127.0.0.1', ...auth, 'X-Pad': 'x'.repeat(20_000) }),
    );
    expect(responses[0]?.status).toBe(431);
    expect(JSON.parse(responses[0]?.body ?? '')).toEqual({ errorMessage: 'The request headers are too large' });
  });
});

describe('over-long paths', () => {
  it("an account ID longer than the router takes is v20's 400 Invalid value for 'accountID', not 414", async () => {
    api = await createTestApi();
    const res = await api.app.inject({ method: 'GET', url: `/v3/accounts/${'1'.repeat(600)}/summary`, headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: "Invalid value specified for 'accountID'" });
    expect(res.headers['requestid']).toBeDefined();
  });

  it('names the parameter that is too long', async () => {
    api = await createTestApi();
    const res = await api.app.inject({ method: 'GET', url: `/v3/accounts/${ACCOUNT}/orders/${'9'.repeat(700)}`, headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ errorMessage: "Invalid value specified for 'orderSpecifier'" });
  });
});

describe('request body charset', () => {
  const order = JSON.stringify({ order: { type: 'MARKET', instrument: 'EUR_USD', units: '1' } });

  it('charset=utf-16 is refused with 415 and nothing changes', async () => {
    api = await createTestApi();
    const before = api.engine.account(ACCOUNT)?.state.lastTransactionID;
    const res = await api.app.inject({
      method: 'POST',
      url: `/v3/accounts/${ACCOUNT}/orders`,
      headers: { ...auth, 'content-type': 'application/json; charset=utf-16' },
      payload: order,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ errorMessage: 'The request body must be UTF-8 JSON; charset=utf-16 is not supported' });
    expect(api.engine.account(ACCOUNT)?.state.lastTransactionID).toBe(before);
  });

  it.each(['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json;charset=utf8', 'application/json'])(
    '%s is read',
    async (contentType) => {
      api = await createTestApi();
      const res = await api.app.inject({
        method: 'POST',
        url: `/v3/accounts/${ACCOUNT}/orders`,
        headers: { ...auth, 'content-type': contentType },
        payload: order,
      });
      expect(res.statusCode).toBe(201);
    },
  );
});
