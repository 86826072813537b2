/**
 * Rate-limit bursts (OANDA's best-practices page,
 * https://developer.oanda.com/rest-live-v20/best-practices/): requests per connection and new
 * connections per client address, answered 429 with a v20 body and Retry-After. Off unless asked.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, TOKEN, type TestApi } from '../support/api/harness.js';
import { listeningApi, parseResponses, rawExchange, rawGet, type RawResponse } from './raw-http.js';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const summary = (port: number, extra: Record<string, string> = {}): string =>
  rawGet(`/v3/accounts/${ACCOUNT}/summary`, { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${TOKEN}`, ...extra });

function expectThrottled(res: RawResponse | undefined, message: RegExp): void {
  expect(res?.status).toBe(429);
  expect(JSON.parse(res?.body ?? '')).toEqual({ errorMessage: expect.stringMatching(message) });
  expect(Number(res?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res?.headers['requestid']).toBeDefined();
}

describe('requests per connection', () => {
  it('a pipelined burst over the rate gets 429s on that connection only', async () => {
    const server = await listeningApi({ limits: { requestsPerSecondPerConnection: 5 } });
    api = server.api;
    const burst = 40;
    const { responses } = await rawExchange(server.port, summary(server.port).repeat(burst), burst);
    expect(responses).toHaveLength(burst);
    expect(responses.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const throttled = responses.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    for (const r of throttled) expectThrottled(r, /^Too many requests: at most 5 per second on a connection$/);
    // Keyed by the connection: another one from the same address starts with a full budget.
    const fresh = await rawExchange(server.port, summary(server.port, { Connection: 'close' }));
    expect(fresh.responses[0]?.status).toBe(200);
  });

  it('is off by default: the test API answers a burst of 300 in full', async () => {
    const server = await listeningApi();
    api = server.api;
    const { responses } = await rawExchange(server.port, summary(server.port).repeat(300), 300);
    expect(responses.every((r) => r.status === 200)).toBe(true);
  });
});

/** Opens `n` connections at once, each sending one request, and gathers the answers in order of opening. */
async function connectionBurst(port: number, n: number): Promise<{ response: RawResponse | undefined; closed: boolean }[]> {
  const sockets = Array.from({ length: n }, () => net.connect({ host: '127.0.0.1', port }));
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<{ response: RawResponse | undefined; closed: boolean }>((resolve) => {
          let text = '';
          socket.setEncoding('utf8');
          socket.on('connect', () => socket.write(summary(port)));
          socket.on('data', (chunk: string) => {
            text += chunk;
          });
          // Wait for the first answer, then see whether the server ends the connection.
          const settle = (closed: boolean): void => {
            socket.destroy();
            resolve({ response: parseResponses(text)[0], closed });
          };
          socket.on('close', () => settle(true));
          socket.on('data', () => {
            const res = parseResponses(text)[0];
            if (res !== undefined && res.status === 200) settle(false);
          });
        }),
    ),
  );
}

describe('new connections per client address', () => {
  it('a connection over the rate gets 429 on its first request and is closed', async () => {
    const server = await listeningApi({ limits: { newConnectionsPerSecond: 2, newConnectionsBurst: 2 } });
    api = server.api;
    const results = await connectionBurst(server.port, 8);
    const answered = results.filter((r) => r.response?.status === 200);
    const refused = results.filter((r) => r.response?.status === 429);
    expect(answered.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length + refused.length).toBe(8);
    for (const r of refused) {
      expectThrottled(r.response, /^Too many new connections: at most 2 per second$/);
      expect(r.response?.headers['connection']).toBe('close');
      expect(r.closed).toBe(true);
    }
  });
});
