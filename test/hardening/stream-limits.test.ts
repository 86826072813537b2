/**
 * Streams per account: OANDA allows 20 active streams (facts sheet,
 * rate limits); one token can no longer take every stream of the server. Pricing and transaction
 * streams count together; other accounts keep theirs; a closed stream frees its place.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { activeStreamClients } from '../../src/api/stream/registry.js';
import { ACCOUNT, OTHER, SECOND_ACCOUNT, TOKEN, type TestApi } from '../support/api/harness.js';
import { openStream, type StreamReader } from '../support/api/stream-reader.js';
import { eventually, listeningApi } from './raw-http.js';

let api: TestApi | undefined;
const opened: StreamReader[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.close();
  await api?.close();
  api = undefined;
});

const headers = { authorization: `Bearer ${TOKEN}` };
const pricing = (account: string): string => `/v3/accounts/${account}/pricing/stream?instruments=EUR_USD`;
const transactions = (account: string): string => `/v3/accounts/${account}/transactions/stream`;

async function open(port: number, path: string): Promise<StreamReader> {
  const s = await openStream(port, path, headers);
  opened.push(s);
  return s;
}

describe('streams per account', () => {
  it('the stream over the limit gets 429 with a v20 body; other accounts and freed places are unaffected', async () => {
    const server = await listeningApi({ limits: { streamsPerAccount: 3 } });
    api = server.api;
    const first = await open(server.port, pricing(ACCOUNT));
    await open(server.port, transactions(ACCOUNT));
    await open(server.port, pricing(ACCOUNT));
    expect(opened.map((s) => s.status)).toEqual([200, 200, 200]);

    const over = await open(server.port, transactions(ACCOUNT));
    expect(over.status).toBe(429);
    await over.ended;
    expect(over.lines[0]).toEqual({ errorMessage: 'Too many active streams for this Account: at most 3' });

    expect((await open(server.port, pricing(SECOND_ACCOUNT))).status).toBe(200);
    expect((await open(server.port, transactions(OTHER))).status).toBe(200);

    first.close();
    const engine = server.api.engine;
    await eventually(() => activeStreamClients(engine) === 4);
    expect((await open(server.port, pricing(ACCOUNT))).status).toBe(200);
  });

  it('a stream is not cut by the idle timeout between heartbeats', async () => {
    const server = await listeningApi({
      heartbeatMs: 60_000,
      limits: { idleTimeoutMs: 100, headersTimeoutMs: 1000, requestTimeoutMs: 1000 },
    });
    api = server.api;
    const stream = await open(server.port, pricing(ACCOUNT));
    expect(stream.status).toBe(200);
    // Several idle timeouts pass without a byte on the stream; it is still there for the next price.
    await new Promise((r) => setTimeout(r, 500));
    server.api.quote('EUR_USD', 1.2, 1.2002);
    expect(await stream.next((l) => l['type'] === 'PRICE' && l['closeoutBid'] === '1.20000')).toMatchObject({ instrument: 'EUR_USD' });
  });

  it('is off by default', async () => {
    const server = await listeningApi();
    api = server.api;
    for (let i = 0; i < 25; i += 1) await open(server.port, i % 2 === 0 ? pricing(ACCOUNT) : transactions(ACCOUNT));
    expect(opened.every((s) => s.status === 200)).toBe(true);
  });
});
