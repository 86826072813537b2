/**
 * Random path parameters (percent-encoding, dots, unicode, very long, '@' specifiers), random
 * headers (Authorization, Accept-Datetime-Format, ClientRequestID, Content-Type), random methods,
 * the stream endpoints over a listening server, and the /sim control API. Invariants: see
 * support/api/fuzz.ts.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  checkAnswer,
  checkState,
  contentTypes,
  describeErrors,
  fuzzRequest,
  headerValue,
  pathSegment,
  queryString,
  snapshot,
} from '../support/api/fuzz.js';
import { ACCOUNT, ADMIN_TOKEN, TOKEN, createTestApi, field, send, type TestApi } from '../support/api/harness.js';
import { V20_ROUTES, fill, type V20Route } from '../support/api/routes.js';

let api: TestApi;
let tradeID = '';

beforeAll(async () => {
  api = await createTestApi();
  const A = `/v3/accounts/${ACCOUNT}`;
  const m = await send(api.app, 'POST', `${A}/orders`, { payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100000' } } });
  tradeID = field<string>(m.body, 'orderFillTransaction', 'tradeOpened', 'tradeID');
  await send(api.app, 'POST', `${A}/orders`, {
    payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000', clientExtensions: { id: 'pending' } } },
  });
});
afterAll(async () => api.close());

const VALID_PARAMS = (): Record<string, string> => ({
  accountID: ACCOUNT,
  orderSpecifier: '@pending',
  tradeSpecifier: tradeID,
  instrument: 'EUR_USD',
  transactionID: '2',
});

/** A body each body route accepts, so that fuzzing a path parameter gets past body checks. */
function bodyOf(route: V20Route): unknown {
  if (route.body !== true) return undefined;
  const t = route.template;
  if (t.endsWith('/orders') && route.method === 'POST')
    return { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.00000' } };
  if (t.endsWith('{orderSpecifier}'))
    return { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000', clientExtensions: { id: 'pending' } } };
  if (t.endsWith('/clientExtensions')) return { clientExtensions: { comment: 'c' } };
  if (t.endsWith('/configuration')) return { alias: 'a' };
  if (t.endsWith('/trades/{tradeSpecifier}/close')) return { units: '1' };
  if (t.endsWith('/trades/{tradeSpecifier}/orders')) return { takeProfit: { price: '1.50000' } };
  if (t.endsWith('/positions/{instrument}/close')) return { longUnits: '1' };
  return {};
}

const injectable = V20_ROUTES.filter((r) => r.stream !== true);
const withParams = injectable.filter((r) => /\{\w+\}/.test(r.template));

describe('random path parameters', () => {
  it('on every route: never a 5xx, v20 error bodies, nothing happens on a refused request', async () => {
    const input = fc.constantFrom(...withParams).chain((route) => {
      const names = [...route.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      return fc.tuple(fc.constant(route), fc.constantFrom(...names), pathSegment);
    });
    await fc.assert(
      fc.asyncProperty(input, async ([route, name, segment]) => {
        const url = fill(route.template, { ...VALID_PARAMS(), [name]: segment.text });
        const body = bodyOf(route);
        const options =
          body === undefined
            ? { method: route.method, url, headers: authHeaders() }
            : { method: route.method, url, headers: authHeaders({ 'content-type': 'application/json' }), payload: JSON.stringify(body) };
        await fuzzRequest(api, options);
      }),
      { numRuns: 300 },
    );
  });
});

describe('random headers', () => {
  it('Authorization, Accept-Datetime-Format, ClientRequestID and Content-Type on every route', async () => {
    const header = fc.record({
      authorization: fc.option(fc.oneof(headerValue, fc.constant({ text: `Bearer ${TOKEN}`, [fc.toStringMethod]: () => 'valid token' })), {
        nil: undefined,
      }),
      format: fc.option(headerValue, { nil: undefined }),
      clientRequestID: fc.option(headerValue, { nil: undefined }),
      contentType: contentTypes,
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...injectable), header, async (route, h) => {
        const headers: Record<string, string> = {};
        if (h.authorization !== undefined) headers['authorization'] = h.authorization.text;
        if (h.format !== undefined) headers['accept-datetime-format'] = h.format.text;
        if (h.clientRequestID !== undefined) headers['clientrequestid'] = h.clientRequestID.text;
        const body = bodyOf(route);
        if (body !== undefined && h.contentType !== '') headers['content-type'] = h.contentType;
        const url = fill(route.template, VALID_PARAMS());
        const answer = await fuzzRequest(
          api,
          body === undefined
            ? { method: route.method, url, headers }
            : { method: route.method, url, headers, payload: JSON.stringify(body) },
        );
        // Transactions carry the ClientRequestID when it is a valid one, else the RequestID.
        const requestIDs = Object.values(answer.body)
          .filter(
            (v): v is Record<string, unknown> =>
              v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>)['requestID'] === 'string',
          )
          .map((t) => t['requestID']);
        const client = h.clientRequestID?.text;
        const expected = client !== undefined && /^[\x21-\x7e]{1,128}$/.test(client) ? client : answer.headers['requestid'];
        for (const id of requestIDs) expect(id).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('random methods on every path', async () => {
    const methods = fc.constantFrom(
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'SEARCH',
      'PROPFIND',
      'LOCK',
      'COPY',
      'MOVE',
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...injectable), methods, async (route, method) => {
        if (method === route.method) return;
        const url = fill(route.template, VALID_PARAMS());
        const before = await snapshot(api);
        const res = await api.app.inject({
          method: method as 'GET',
          url,
          headers: authHeaders({ 'content-type': 'application/json' }),
          payload: '{}',
        });
        expect(res.statusCode).toBeLessThan(500);
        // OPTIONS belongs to CORS (@fastify/cors answers it before any route; errors.test.ts
        // checks its shape); every other method gets a v20 answer.
        if (method !== 'OPTIONS') checkAnswer(res, `${method} ${url}`);
        // Another method of the same path may exist (GET and PUT orders/{id}); none of the others may change anything.
        if (res.statusCode >= 400) expect(await snapshot(api)).toEqual(before);
      }),
      { numRuns: 150 },
    );
  });
});

describe('stream endpoints over a listening server', () => {
  const streams = V20_ROUTES.filter((r) => r.stream === true);

  it('random queries and headers: never a 5xx; errors are JSON; a 200 streams NDJSON', async () => {
    const server = await createTestApi({ heartbeatMs: 20 });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.app.server.address() as { port: number }).port;
    try {
      const input = fc.record({
        route: fc.constantFrom(...streams),
        query: queryString(['instruments', 'snapshot', 'includeHomeConversions']),
        authorization: fc.oneof(headerValue, fc.constant({ text: `Bearer ${TOKEN}`, [fc.toStringMethod]: () => 'valid token' })),
        format: fc.option(headerValue, { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ route, query, authorization, format }) => {
          // A real client percent-encodes what HTTP does not allow raw in a request line.
          const raw = query.text.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch));
          const path = `${fill(route.template, { accountID: ACCOUNT })}?${raw}`;
          const headers: Record<string, string> = { authorization: authorization.text };
          if (format !== undefined) headers['accept-datetime-format'] = format.text;
          const { status, text } = await firstBytes(port, path, headers);
          // Over Node's 16 KiB header limit the HTTP server itself answers 431 or hangs up.
          const headerBytes = Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, path.length);
          if (headerBytes > 16_000 && (status === 0 || status === 431)) return;
          expect(status, `${path}: ${text.slice(0, 300)}`).toBeGreaterThan(0);
          expect(status, `${path}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (status === 200) {
            const line = text.split('\n')[0] ?? '';
            expect(JSON.parse(line), line).toHaveProperty('type');
          } else {
            expect(JSON.parse(text)).toHaveProperty('errorMessage');
          }
        }),
        { numRuns: 40, timeout: 4000, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: true },
      );
    } finally {
      await server.close();
    }
  });
});

/** Status and the first complete line (200) or the whole body (errors), then hangs up. */
function firstBytes(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: no keep-alive socket reuse races between runs.
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (res.statusCode === 200 && text.includes('\n')) {
          req.destroy();
          resolve({ status: 200, text });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    // A reset before any answer (status 0) is for the caller to judge.
    req.on('error', (e) => resolve({ status: 0, text: String(e) }));
    req.setTimeout(3000, () => {
      req.destroy();
      reject(new Error(`no answer from ${path}`));
    });
  });
}

describe('the /sim control API', () => {
  const SIM: { method: 'GET' | 'POST'; url: string; body: boolean }[] = [
    { method: 'POST', url: '/sim/ticks', body: true },
    { method: 'GET', url: '/sim/clock', body: false },
    { method: 'POST', url: '/sim/clock/advance', body: true },
    { method: 'POST', url: '/sim/accounts', body: true },
    { method: 'POST', url: `/sim/accounts/${ACCOUNT}/reset`, body: true },
    { method: 'POST', url: `/sim/accounts/${ACCOUNT}/deposit`, body: true },
    { method: 'GET', url: `/sim/journal/${ACCOUNT}`, body: false },
  ];
  const simBody = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc
      .record({
        ticks: fc.array(
          fc.record(
            {
              instrument: fc.constantFrom('EUR_USD', 'USD_JPY', 'XXX_YYY', ''),
              time: fc.oneof(
                fc.constant(undefined),
                fc.constantFrom('2024-01-02T12:00:00Z', '2030-01-01T00:00:00Z', 'x', '1704196800'),
                fc.double(),
              ),
              bid: fc.oneof(fc.double(), fc.constantFrom('1.1', '-1', 'x', '1e3')),
              ask: fc.oneof(fc.double(), fc.constantFrom('1.1002', '0', 'x')),
            },
            { requiredKeys: ['instrument', 'bid', 'ask'] },
          ),
          { maxLength: 4 },
        ),
      })
      .map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          seconds: fc.oneof(fc.double(), fc.constantFrom(-1, 0, 1, 1e12, '5')),
          to: fc.constantFrom(undefined, 'x', '2023-01-01T00:00:00Z', '2031-01-01T00:00:00Z'),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          amount: fc.oneof(fc.double(), fc.constantFrom('100', '-1e9', '0', 'x', '0.00001', '-100')),
          comment: fc.oneof(fc.string(), fc.constant(5)),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          id: fc.constantFrom('101-004-5555555-001', ACCOUNT, 'x'),
          currency: fc.constantFrom('USD', 'XYZ', 'usd', ''),
          balance: fc.constantFrom('1000', '-1', '1.23456', 'x', 5),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
  );

  it('random bodies and tokens: never a 5xx; 4xx in the v20 error shape; refusals change nothing', async () => {
    const token = fc.constantFrom(
      `Bearer ${ADMIN_TOKEN}`,
      `Bearer ${ADMIN_TOKEN}`,
      `Bearer ${TOKEN}`,
      '',
      'Bearer ',
      `Bearer ${ADMIN_TOKEN}x`,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SIM), simBody, token, async (route, body, authorization) => {
        const headers: Record<string, string> = authorization === '' ? {} : { authorization };
        const before = await snapshot(api);
        const res = await api.app.inject(
          route.body
            ? { method: route.method, url: route.url, headers: { ...headers, 'content-type': 'application/json' }, payload: body }
            : { method: route.method, url: route.url, headers },
        );
        const what = `${route.method} ${route.url} ${body.slice(0, 200)}`;
        expect(res.statusCode, `${what} -> ${res.body.slice(0, 300)}\n${describeErrors(api)}`).toBeLessThan(500);
        if (route.url.startsWith('/sim/journal') && res.statusCode === 200) return;
        const answer = checkAnswer(res, what);
        // A refusal changes nothing; a business rejection (a deposit of 0.00001: TRANSFER_FUNDS_REJECT)
        // writes its reject transaction and nothing else, as on the v3 paths.
        await checkState(api, before, answer, what);
      }),
      { numRuns: 150 },
    );
  });
});
