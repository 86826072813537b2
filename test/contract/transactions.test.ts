import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const A = '/v3/accounts/{accountID}';
const LIST = `${A}/transactions`;
const ONE = `${A}/transactions/{transactionID}`;
const IDRANGE = `${A}/transactions/idrange`;
const SINCEID = `${A}/transactions/sinceid`;
const url = (suffix = ''): string => `/v3/accounts/${ACCOUNT}${suffix}`;

let api: TestApi;

/** The account's last transaction ID as it stands: read by each test, as others add transactions. */
async function lastTransactionID(): Promise<number> {
  return Number(field((await send(api.app, 'GET', url('/summary'))).body, 'lastTransactionID'));
}

beforeAll(async () => {
  api = await createTestApi();
  // A history with most transaction kinds: orders of every type, fills, rejects, cancels,
  // client extension changes, trade closes, configuration.
  const post = async (order: Record<string, unknown>): Promise<Record<string, unknown>> =>
    (await send(api.app, 'POST', url('/orders'), { payload: { order } })).body as Record<string, unknown>;
  const m = await post({
    type: 'MARKET',
    instrument: 'EUR_USD',
    units: '1000',
    takeProfitOnFill: { price: '1.20000' },
    stopLossOnFill: { price: '1.00000' },
    trailingStopLossOnFill: { distance: '0.01000' },
  });
  const tradeID = field<string>(m, 'orderFillTransaction', 'tradeOpened', 'tradeID');
  await post({ type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.05000', clientExtensions: { id: 'l1' } });
  await post({ type: 'STOP', instrument: 'EUR_USD', units: '10', price: '1.15000' });
  await post({ type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '10', price: '1.15000' });
  await post({ type: 'MARKET', instrument: 'EUR_USD', units: '0' });
  await post({ type: 'LIMIT', instrument: 'EUR_USD', units: '10' });
  await post({ type: 'STOP', instrument: 'EUR_USD', units: '10' });
  await post({ type: 'MARKET_IF_TOUCHED', instrument: 'EUR_USD', units: '10' });
  await post({ type: 'TAKE_PROFIT', tradeID, price: '1.3000001' });
  await post({ type: 'STOP_LOSS', tradeID: '99999', price: '1.00000' });
  await post({ type: 'TRAILING_STOP_LOSS', tradeID: '99999', distance: '0.01000' });
  await send(api.app, 'PUT', url('/orders/@l1/clientExtensions'), { payload: { clientExtensions: { comment: 'x' } } });
  await send(api.app, 'PUT', url('/orders/@nope/clientExtensions'), { payload: { clientExtensions: { comment: 'x' } } });
  await send(api.app, 'PUT', url('/orders/@l1/cancel'));
  await send(api.app, 'PUT', url('/orders/@l1/cancel'));
  await send(api.app, 'PATCH', url('/configuration'), { payload: { alias: 'tx' } });
  await send(api.app, 'PATCH', url('/configuration'), { payload: { marginRate: '2' } });
  await send(api.app, 'PUT', url(`/trades/${tradeID}/clientExtensions`), { payload: { clientExtensions: { id: 't1' } } });
  await send(api.app, 'PUT', url('/trades/99999/clientExtensions'), { payload: { clientExtensions: { id: 't1' } } });
  await send(api.app, 'PUT', url(`/trades/${tradeID}/close`), { payload: { units: '100' } });
  api.quote('EUR_USD', 1.104, 1.1042);
  api.quote('EUR_USD', 1.099, 1.0992);
  await send(api.app, 'PUT', url(`/trades/${tradeID}/close`), { payload: { units: 'ALL' } });
});
afterAll(async () => api.close());

describe('GET /v3/accounts/{accountID}/transactions', () => {
  it('200 with page URLs (idrange) covering the whole log', async () => {
    const last = await lastTransactionID();
    const body = expectV20(await send(api.app, 'GET', url('/transactions?pageSize=10')), 'GET', LIST, 200);
    expect(body['count']).toBe(last);
    expect(body['pageSize']).toBe(10);
    const pages = field<string[]>(body, 'pages');
    expect(pages).toHaveLength(Math.ceil(last / 10));
    expect(pages[0]).toBe(`http://v20sim.test/v3/accounts/${ACCOUNT}/transactions/idrange?from=1&to=10`);
  });

  it('200 with a type filter echoed and carried into the page URLs', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/transactions?type=ORDER_FILL,ORDER_CANCEL')), 'GET', LIST, 200);
    expect(body['type']).toEqual(['ORDER_FILL', 'ORDER_CANCEL']);
    expect(field<string[]>(body, 'pages')[0]).toMatch(/&type=ORDER_FILL,ORDER_CANCEL$/);
  });

  it('200 with from/to, also as UNIX times', async () => {
    const body = expectV20(
      await send(api.app, 'GET', url('/transactions?from=2024-01-01T00:00:00Z&to=2024-01-03T00:00:00Z')),
      'GET',
      LIST,
      200,
    );
    expect(body['from']).toBe('2024-01-01T00:00:00.000000000Z');
    const unix = expectV20(
      await send(api.app, 'GET', url('/transactions?from=1704067200'), { headers: { 'accept-datetime-format': 'UNIX' } }),
      'GET',
      LIST,
      200,
    );
    expect(unix['from']).toBe('1704067200.000000000');
  });

  it('400 for a malformed pageSize, type or time; 416 for from after to', async () => {
    for (const q of ['pageSize=0', 'pageSize=1001', 'pageSize=x', 'type=NOPE', 'from=yesterday', 'to=2024-13-01T00:00:00Z']) {
      expectV20(await send(api.app, 'GET', url(`/transactions?${q}`)), 'GET', LIST, 400);
    }
    expectV20(await send(api.app, 'GET', url('/transactions?from=2024-01-03T00:00:00Z&to=2024-01-01T00:00:00Z')), 'GET', LIST, 416);
  });
});

describe('GET /v3/accounts/{accountID}/transactions/idrange', () => {
  it('200 with every transaction of the log, each valid against its own definition', async () => {
    const last = await lastTransactionID();
    const body = expectV20(await send(api.app, 'GET', url(`/transactions/idrange?from=1&to=${last}`)), 'GET', IDRANGE, 200);
    const txs = field<{ id: string; type: string }[]>(body, 'transactions');
    expect(txs.map((t) => Number(t.id))).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    const types = new Set(txs.map((t) => t.type));
    for (const type of [
      'CREATE',
      'TRANSFER_FUNDS',
      'CLIENT_CONFIGURE',
      'CLIENT_CONFIGURE_REJECT',
      'MARKET_ORDER',
      'MARKET_ORDER_REJECT',
      'LIMIT_ORDER',
      'LIMIT_ORDER_REJECT',
      'STOP_ORDER',
      'STOP_ORDER_REJECT',
      'MARKET_IF_TOUCHED_ORDER',
      'MARKET_IF_TOUCHED_ORDER_REJECT',
      'TAKE_PROFIT_ORDER',
      'TAKE_PROFIT_ORDER_REJECT',
      'STOP_LOSS_ORDER',
      'STOP_LOSS_ORDER_REJECT',
      'TRAILING_STOP_LOSS_ORDER',
      'TRAILING_STOP_LOSS_ORDER_REJECT',
      'ORDER_FILL',
      'ORDER_CANCEL',
      'ORDER_CANCEL_REJECT',
      'ORDER_CLIENT_EXTENSIONS_MODIFY',
      'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
      'TRADE_CLIENT_EXTENSIONS_MODIFY',
      'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
    ]) {
      expect(types, type).toContain(type);
    }
  });

  it('200 with a type filter', async () => {
    const last = await lastTransactionID();
    const body = expectV20(await send(api.app, 'GET', url(`/transactions/idrange?from=1&to=${last}&type=ORDER`)), 'GET', IDRANGE, 200);
    const types = field<{ type: string }[]>(body, 'transactions').map((t) => t.type);
    expect(types.length).toBeGreaterThan(0);
    expect(types).not.toContain('CREATE');
    expect(types).not.toContain('CLIENT_CONFIGURE');
  });

  it('400 for missing or malformed IDs; 416 for from > to or beyond the log', async () => {
    const last = await lastTransactionID();
    for (const q of ['', 'from=1', 'to=3', 'from=a&to=3', 'from=1&to=3&type=BOGUS']) {
      expectV20(await send(api.app, 'GET', url(`/transactions/idrange?${q}`)), 'GET', IDRANGE, 400);
    }
    expectV20(await send(api.app, 'GET', url('/transactions/idrange?from=5&to=2')), 'GET', IDRANGE, 416);
    expectV20(await send(api.app, 'GET', url(`/transactions/idrange?from=${last + 10}&to=${last + 20}`)), 'GET', IDRANGE, 416);
  });
});

describe('GET /v3/accounts/{accountID}/transactions/sinceid', () => {
  it('200 with the transactions after the ID (exclusive)', async () => {
    const last = await lastTransactionID();
    const body = expectV20(await send(api.app, 'GET', url(`/transactions/sinceid?id=${last - 3}`)), 'GET', SINCEID, 200);
    expect(field<{ id: string }[]>(body, 'transactions').map((t) => t.id)).toEqual([last - 2, last - 1, last].map(String));
    const none = expectV20(await send(api.app, 'GET', url(`/transactions/sinceid?id=${last}`)), 'GET', SINCEID, 200);
    expect(none['transactions']).toEqual([]);
  });

  it('400 without id; 416 beyond the last transaction', async () => {
    const last = await lastTransactionID();
    expectV20(await send(api.app, 'GET', url('/transactions/sinceid')), 'GET', SINCEID, 400);
    expectV20(await send(api.app, 'GET', url('/transactions/sinceid?id=x')), 'GET', SINCEID, 400);
    expectV20(await send(api.app, 'GET', url(`/transactions/sinceid?id=${last + 1}`)), 'GET', SINCEID, 416);
  });
});

describe('GET /v3/accounts/{accountID}/transactions/{transactionID}', () => {
  it('200 for each transaction, under UNIX times too', async () => {
    const last = await lastTransactionID();
    for (let id = 1; id <= last; id += 1) {
      const body = expectV20(await send(api.app, 'GET', url(`/transactions/${id}`)), 'GET', ONE, 200);
      expect(field(body, 'transaction', 'id')).toBe(String(id));
    }
    const unix = expectV20(
      await send(api.app, 'GET', url('/transactions/1'), { headers: { 'accept-datetime-format': 'UNIX' } }),
      'GET',
      ONE,
      200,
    );
    expect(field(unix, 'transaction', 'time')).toMatch(/^\d+\.\d{9}$/);
  });

  it('404 NO_SUCH_TRANSACTION for an unknown ID, 400 for a malformed one', async () => {
    const last = await lastTransactionID();
    const body = expectV20(await send(api.app, 'GET', url(`/transactions/${last + 1}`)), 'GET', ONE, 404);
    expect(body['errorCode']).toBe('NO_SUCH_TRANSACTION');
    expectV20(await send(api.app, 'GET', url('/transactions/0')), 'GET', ONE, 400);
    expectV20(await send(api.app, 'GET', url('/transactions/abc')), 'GET', ONE, 400);
  });
});

describe('transactions the clock makes', () => {
  it('DAILY_FINANCING after 5 pm New York, and the account changes with a trailing stop, conform', async () => {
    const res = await send(api.app, 'POST', url('/orders'), {
      payload: { order: { type: 'MARKET', instrument: 'GBP_USD', units: '-3000', trailingStopLossOnFill: { distance: '0.05000' } } },
    });
    expect(res.status).toBe(201);
    const from = Number(field(res.body, 'lastTransactionID'));
    api.engine.advanceTo(api.engine.now + 30 * 3600 * 1_000_000);
    api.quote('GBP_USD', 1.265, 1.2653);
    const body = expectV20(await send(api.app, 'GET', url(`/transactions/sinceid?id=${from}`)), 'GET', SINCEID, 200);
    expect(field<{ type: string }[]>(body, 'transactions').map((t) => t.type)).toContain('DAILY_FINANCING');
    const changes = expectV20(await send(api.app, 'GET', url(`/changes?sinceTransactionID=${from - 3}`)), 'GET', `${A}/changes`, 200);
    expect(field<unknown[]>(changes, 'state', 'orders').length).toBeGreaterThan(0);
    expectV20(await send(api.app, 'GET', url()), 'GET', A, 200);
  });
});
