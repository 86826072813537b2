/**
 * The NDJSON streams over a listening server: each line against its spec definition, heartbeats,
 * Content-Type, and lines never split across chunks (the official client parses every chunk's
 * lines as they come, so a line cut in two would reach JSON.parse half-written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPricingStreamLine, expectTransactionStreamLine } from '../support/api/contract.js';
import { ACCOUNT, OTHER_TOKEN, TOKEN, createTestApi, send, type TestApi } from '../support/api/harness.js';
import { openStream, type StreamReader } from '../support/api/stream-reader.js';

let api: TestApi;
let port = 0;
const open: StreamReader[] = [];

beforeAll(async () => {
  api = await createTestApi({ heartbeatMs: 100 });
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = (api.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of open) s.close();
  await api.close();
});

async function stream(path: string, headers: Record<string, string> = {}): Promise<StreamReader> {
  const s = await openStream(port, path, { authorization: `Bearer ${TOKEN}`, ...headers });
  open.push(s);
  return s;
}

function expectWholeLines(s: StreamReader): void {
  for (const chunk of s.chunks) expect(chunk.endsWith('\n'), JSON.stringify(chunk)).toBe(true);
}

describe('GET /v3/accounts/{accountID}/transactions/stream', () => {
  it('200 application/octet-stream; heartbeats, then the transactions of an order as they happen', async () => {
    const s = await stream(`/v3/accounts/${ACCOUNT}/transactions/stream`);
    expect(s.status).toBe(200);
    expect(String(s.headers['content-type'])).toMatch(/^application\/octet-stream/);
    expect(s.headers['requestid']).toBeTypeOf('string');
    const hb = await s.next((l) => l['type'] === 'HEARTBEAT');
    expectTransactionStreamLine(hb);
    const res = await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
      payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', stopLossOnFill: { price: '1.00000' } } },
    });
    expect(res.status).toBe(201);
    const created = await s.next((l) => l['type'] === 'MARKET_ORDER');
    const fill = await s.next((l) => l['type'] === 'ORDER_FILL');
    const sl = await s.next((l) => l['type'] === 'STOP_LOSS_ORDER');
    for (const line of [created, fill, sl]) expectTransactionStreamLine(line);
    expect(fill['batchID']).toBe(created['id']);
    const after = await s.next((l) => l['type'] === 'HEARTBEAT');
    expect(after['lastTransactionID']).toBe(sl['id']);
    for (const line of s.lines) expectTransactionStreamLine(line);
    expectWholeLines(s);
    s.close();
  });

  it('UNIX DateTimes on the stream with Accept-Datetime-Format: UNIX', async () => {
    const s = await stream(`/v3/accounts/${ACCOUNT}/transactions/stream`, { 'accept-datetime-format': 'UNIX' });
    const hb = await s.next((l) => l['type'] === 'HEARTBEAT');
    expect(hb['time']).toMatch(/^\d+\.\d{9}$/);
    await send(api.app, 'POST', `/v3/accounts/${ACCOUNT}/orders`, {
      payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1', price: '1.00000' } },
    });
    const tx = await s.next((l) => l['type'] === 'LIMIT_ORDER');
    expect(tx['time']).toMatch(/^\d+\.\d{9}$/);
    expectTransactionStreamLine(tx);
    s.close();
  });

  it('401 and 403 end with a JSON error body', async () => {
    const noToken = await openStream(port, `/v3/accounts/${ACCOUNT}/transactions/stream`, {});
    expect(noToken.status).toBe(401);
    await noToken.ended;
    const forbidden = await openStream(port, `/v3/accounts/${ACCOUNT}/transactions/stream`, { authorization: `Bearer ${OTHER_TOKEN}` });
    expect(forbidden.status).toBe(403);
    await forbidden.ended;
    expect(forbidden.lines[0]?.['errorMessage']).toBeTypeOf('string');
  });
});

describe('GET /v3/accounts/{accountID}/pricing/stream', () => {
  it('200: a snapshot, then PRICE lines for pushed quotes and heartbeats', async () => {
    const s = await stream(`/v3/accounts/${ACCOUNT}/pricing/stream?instruments=EUR_USD,USD_JPY`);
    expect(s.status).toBe(200);
    expect(String(s.headers['content-type'])).toMatch(/^application\/octet-stream/);
    const snapshot = [await s.next((l) => l['type'] === 'PRICE'), await s.next((l) => l['type'] === 'PRICE')];
    expect(snapshot.map((p) => p['instrument']).sort()).toEqual(['EUR_USD', 'USD_JPY']);
    api.quote('EUR_USD', 1.1234, 1.1236);
    const pushed = await s.next((l) => l['type'] === 'PRICE' && l['closeoutBid'] === '1.12340', 3000);
    expect(pushed['instrument']).toBe('EUR_USD');
    await s.next((l) => l['type'] === 'HEARTBEAT');
    for (const line of s.lines) expectPricingStreamLine(line);
    expect(s.lines.some((l) => l['instrument'] === 'GBP_USD')).toBe(false);
    expectWholeLines(s);
    s.close();
  });

  it('400 for unknown instruments', async () => {
    const s = await openStream(port, `/v3/accounts/${ACCOUNT}/pricing/stream?instruments=XXX_YYY`, { authorization: `Bearer ${TOKEN}` });
    expect(s.status).toBe(400);
    await s.ended;
  });
});
