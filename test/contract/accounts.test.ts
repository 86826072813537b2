import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV20 } from '../support/api/expect.js';
import { ACCOUNT, HEDGED, OTHER, OTHER_TOKEN, createTestApi, field, send, type TestApi } from '../support/api/harness.js';

const A = '/v3/accounts/{accountID}';
const url = (suffix = ''): string => `/v3/accounts/${ACCOUNT}${suffix}`;

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => api.close());

describe('GET /v3/accounts', () => {
  it('lists the accounts of the token', async () => {
    const all = expectV20(await send(api.app, 'GET', '/v3/accounts'), 'GET', '/v3/accounts', 200);
    expect(field<{ id: string }[]>(all, 'accounts').map((a) => a.id)).toEqual([ACCOUNT, HEDGED, OTHER]);
    const narrow = expectV20(await send(api.app, 'GET', '/v3/accounts', { token: OTHER_TOKEN }), 'GET', '/v3/accounts', 200);
    expect(narrow).toEqual({ accounts: [{ id: OTHER, tags: [] }] });
  });
});

describe('GET /v3/accounts/{accountID}', () => {
  it('returns the full account, also with open trades, positions and pending orders', async () => {
    const before = expectV20(await send(api.app, 'GET', url()), 'GET', A, 200);
    expect(field(before, 'account', 'id')).toBe(ACCOUNT);
    expect(field(before, 'lastTransactionID')).toBe(field(before, 'account', 'lastTransactionID'));
    // What the account held before (other tests of this file add orders and trades): one trade
    // and two orders (its stop loss, the LIMIT) more after.
    const count = (body: Record<string, unknown>, key: string): number => field<unknown[]>(body, 'account', key).length;
    await send(api.app, 'POST', url('/orders'), {
      payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', stopLossOnFill: { price: '1.05000' } } },
    });
    await send(api.app, 'POST', url('/orders'), {
      payload: { order: { type: 'LIMIT', instrument: 'USD_JPY', units: '-500', price: '155.000' } },
    });
    const full = expectV20(await send(api.app, 'GET', url()), 'GET', A, 200);
    expect(count(full, 'trades')).toBe(count(before, 'trades') + 1);
    expect(count(full, 'orders')).toBe(count(before, 'orders') + 2);
    expect(count(full, 'positions')).toBeGreaterThanOrEqual(1);
    expect(field(full, 'account', 'openTradeCount')).toBe(field<number>(before, 'account', 'openTradeCount') + 1);
  });

  it('answers with UNIX DateTimes under Accept-Datetime-Format: UNIX, still conforming', async () => {
    // A trade of its own, so the account has an openTime to print.
    await send(api.app, 'POST', url('/orders'), { payload: { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } } });
    const body = expectV20(await send(api.app, 'GET', url(), { headers: { 'accept-datetime-format': 'UNIX' } }), 'GET', A, 200);
    expect(field(body, 'account', 'createdTime')).toMatch(/^\d+\.\d{9}$/);
    expect(field(body, 'account', 'trades', 0, 'openTime')).toMatch(/^\d+\.\d{9}$/);
  });

  it('400 for a malformed Accept-Datetime-Format and a malformed account ID', async () => {
    expectV20(await send(api.app, 'GET', url(), { headers: { 'accept-datetime-format': 'ISO8601' } }), 'GET', A, 400);
    const bad = expectV20(await send(api.app, 'GET', '/v3/accounts/5271115'), 'GET', A, 400);
    expect(bad['errorMessage']).toBe("Invalid value specified for 'accountID'");
  });
});

describe('GET /v3/accounts/{accountID}/summary', () => {
  it('returns the summary without trades, positions and orders', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/summary')), 'GET', `${A}/summary`, 200);
    const account = field<Record<string, unknown>>(body, 'account');
    expect(account['trades']).toBeUndefined();
    expect(account['orders']).toBeUndefined();
    expect(account['NAV']).toMatch(/^-?\d+\.\d{4}$/);
  });
});

describe('GET /v3/accounts/{accountID}/instruments', () => {
  const T = `${A}/instruments`;
  it('lists all instruments, or the ones asked for', async () => {
    const all = expectV20(await send(api.app, 'GET', url('/instruments')), 'GET', T, 200);
    expect(field<unknown[]>(all, 'instruments').length).toBeGreaterThanOrEqual(28);
    const two = expectV20(await send(api.app, 'GET', url('/instruments?instruments=EUR_USD,USD_JPY')), 'GET', T, 200);
    expect(field<{ name: string }[]>(two, 'instruments').map((i) => i.name)).toEqual(['EUR_USD', 'USD_JPY']);
    expect(field(two, 'instruments', 0, 'pipLocation')).toBe(-4);
  });

  it('400 for an unknown instrument', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/instruments?instruments=EUR_USD,XXX_YYY')), 'GET', T, 400);
    expect(body['errorMessage']).toBe("Invalid value specified for 'instruments'");
  });
});

describe('PATCH /v3/accounts/{accountID}/configuration', () => {
  const T = `${A}/configuration`;
  it('200 with clientConfigureTransaction for alias and margin rate', async () => {
    const body = expectV20(
      await send(api.app, 'PATCH', url('/configuration'), { payload: { alias: 'renamed', marginRate: '0.05' } }),
      'PATCH',
      T,
      200,
    );
    expect(field(body, 'clientConfigureTransaction', 'type')).toBe('CLIENT_CONFIGURE');
    expect(field(body, 'clientConfigureTransaction', 'alias')).toBe('renamed');
    const summary = await send(api.app, 'GET', url('/summary'));
    expect(field(summary.body, 'account', 'alias')).toBe('renamed');
    expect(field(summary.body, 'account', 'marginRate')).toBe('0.05');
  });

  it('400 with clientConfigureRejectTransaction for a business reject', async () => {
    const body = expectV20(await send(api.app, 'PATCH', url('/configuration'), { payload: { marginRate: '7' } }), 'PATCH', T, 400);
    expect(field(body, 'clientConfigureRejectTransaction', 'rejectReason')).toBe('MARGIN_RATE_INVALID');
    expect(body['errorCode']).toBe('MARGIN_RATE_INVALID');
    const empty = expectV20(await send(api.app, 'PATCH', url('/configuration'), { payload: {} }), 'PATCH', T, 400);
    expect(empty['errorCode']).toBe('CLIENT_CONFIGURE_DATA_MISSING');
  });

  it('400 without a transaction for malformed input', async () => {
    const before = field<string>((await send(api.app, 'GET', url('/summary'))).body, 'lastTransactionID');
    const body = expectV20(await send(api.app, 'PATCH', url('/configuration'), { payload: { alias: true } }), 'PATCH', T, 400);
    expect(body['clientConfigureRejectTransaction']).toBeUndefined();
    expectV20(await send(api.app, 'PATCH', url('/configuration'), { payload: '{"alias":' }), 'PATCH', T, 400);
    expect(field((await send(api.app, 'GET', url('/summary'))).body, 'lastTransactionID')).toBe(before);
  });
});

describe('GET /v3/accounts/{accountID}/changes', () => {
  const T = `${A}/changes`;
  it('returns state alone, or changes since a transaction', async () => {
    const stateOnly = expectV20(await send(api.app, 'GET', url('/changes')), 'GET', T, 200);
    expect(stateOnly['state']).toBeTypeOf('object');
    const last = Number(stateOnly['lastTransactionID']);
    const order = await send(api.app, 'POST', url('/orders'), {
      payload: { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000' } },
    });
    expect(order.status).toBe(201);
    const since = expectV20(await send(api.app, 'GET', url(`/changes?sinceTransactionID=${last}`)), 'GET', T, 200);
    expect(field<unknown[]>(since, 'changes', 'ordersCreated')).toHaveLength(1);
    expect(field<{ type: string }[]>(since, 'changes', 'transactions').map((t) => t.type)).toEqual(['LIMIT_ORDER']);
    for (const key of [
      'ordersCancelled',
      'ordersFilled',
      'ordersTriggered',
      'tradesOpened',
      'tradesReduced',
      'tradesClosed',
      'positions',
    ]) {
      expect(field(since, 'changes', key), key).toBeInstanceOf(Array);
    }
  });

  it('416 for a sinceTransactionID beyond the last transaction, 400 for a malformed one', async () => {
    const body = expectV20(await send(api.app, 'GET', url('/changes?sinceTransactionID=99999')), 'GET', T, 416);
    expect(body['errorMessage']).toBeTypeOf('string');
    expectV20(await send(api.app, 'GET', url('/changes?sinceTransactionID=abc')), 'GET', T, 400);
  });
});
