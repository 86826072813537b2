import { afterEach, describe, expect, it } from 'vitest';
import { formatRfc3339, formatUnix } from '../../src/domain/time.js';
import { ACCOUNT, SECOND_ACCOUNT as OTHER, T0 as START, harness, type Harness, type JsonBody } from '../support/api/harness.js';

const BASE = 'http://v20sim.test';
const TX = `/v3/accounts/${ACCOUNT}/transactions`;

let h: Harness;
afterEach(async () => h.app.close());

/** Rests `n` buy limits far below the market: one LIMIT_ORDER transaction each. */
function restLimits(n: number): void {
  for (let i = 0; i < n; i += 1) {
    const out = h.engine.execute(ACCOUNT, {
      type: 'CREATE_ORDER',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' },
    });
    expect(out.reject).toBeUndefined();
  }
}

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: JsonBody }> {
  const res = await h.request('GET', url, undefined, headers);
  return { status: res.statusCode, body: res.json() };
}

function ids(body: JsonBody): string[] {
  return (body['transactions'] as { id: string }[]).map((t) => t.id);
}

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

describe('GET transactions (pages)', () => {
  it('splits the whole log into idrange pages of pageSize, echoing from, to and pageSize', async () => {
    h = await harness({ baseUrl: BASE });
    restLimits(248); // transactions 3..250 after CREATE and the deposit
    const { status, body } = await get(TX);
    expect(status).toBe(200);
    expect(body).toEqual({
      from: formatRfc3339(START),
      to: formatRfc3339(h.engine.now),
      pageSize: 100,
      count: 250,
      pages: [`${BASE}${TX}/idrange?from=1&to=100`, `${BASE}${TX}/idrange?from=101&to=200`, `${BASE}${TX}/idrange?from=201&to=250`],
      lastTransactionID: '250',
    });
    // Every page URL answers with its transactions; together they are the whole log.
    const all: string[] = [];
    for (const page of body['pages'] as string[]) all.push(...ids((await get(page.slice(BASE.length))).body));
    expect(all).toEqual(range(1, 250));

    const small = (await get(`${TX}?pageSize=1000`)).body;
    expect(small['pages']).toEqual([`${BASE}${TX}/idrange?from=1&to=250`]);
    expect((await get(`${TX}?pageSize=7`)).body['pages']).toHaveLength(36);
  });

  it('selects transactions by time, inclusive at both ends, in RFC3339 or UNIX', async () => {
    h = await harness({ baseUrl: BASE });
    // The harness quoted twice (START + 1 s, + 2 s); CREATE and the deposit are at START.
    restLimits(2); // 3, 4 at START + 2 s
    h.quote('EUR_USD', 1.1, 1.1002); // START + 3 s
    restLimits(3); // 5..7
    const t1 = h.engine.now;
    h.quote('EUR_USD', 1.1, 1.1002); // START + 4 s
    restLimits(1); // 8
    const window = (await get(`${TX}?from=${formatRfc3339(t1)}&to=${formatRfc3339(t1)}`)).body;
    expect(window).toMatchObject({ count: 3, pages: [`${BASE}${TX}/idrange?from=5&to=7`], from: formatRfc3339(t1), to: formatRfc3339(t1) });
    const tail = (await get(`${TX}?from=${formatUnix(t1)}`)).body;
    expect(tail).toMatchObject({ count: 4, pages: [`${BASE}${TX}/idrange?from=5&to=8`] });
    const unix = (await get(`${TX}?from=${formatUnix(t1)}&to=${formatUnix(t1 + 500_000)}`, { 'Accept-Datetime-Format': 'UNIX' })).body;
    expect(unix).toMatchObject({ from: formatUnix(t1), to: formatUnix(t1 + 500_000), count: 3 });
    const before = (await get(`${TX}?to=2020-01-01T00:00:00Z&from=2019-01-01T00:00:00Z`)).body;
    expect(before).toMatchObject({ count: 0, pages: [] });
  });

  it('filters by type and group, keeping the filter on the page URLs', async () => {
    h = await harness({ baseUrl: BASE });
    restLimits(5); // 3..7
    h.engine.execute(ACCOUNT, { type: 'CANCEL_ORDER', orderSpecifier: '4' }); // 8
    h.engine.execute(ACCOUNT, { type: 'CONFIGURE', alias: 'x' }); // 9
    h.engine.execute(ACCOUNT, { type: 'TRANSFER_FUNDS', amount: '10' }); // 10
    const limits = (await get(`${TX}?type=LIMIT_ORDER&pageSize=2`)).body;
    expect(limits).toMatchObject({ type: ['LIMIT_ORDER'], count: 5, pageSize: 2 });
    expect(limits['pages']).toEqual([
      `${BASE}${TX}/idrange?from=3&to=4&type=LIMIT_ORDER`,
      `${BASE}${TX}/idrange?from=5&to=6&type=LIMIT_ORDER`,
      `${BASE}${TX}/idrange?from=7&to=7&type=LIMIT_ORDER`,
    ]);
    expect(ids((await get(`${TX}/idrange?from=3&to=4&type=LIMIT_ORDER`)).body)).toEqual(['3', '4']);
    expect((await get(`${TX}?type=ORDER`)).body).toMatchObject({ count: 6, pages: [`${BASE}${TX}/idrange?from=3&to=8&type=ORDER`] });
    expect((await get(`${TX}?type=ADMIN`)).body).toMatchObject({ count: 2, pages: [`${BASE}${TX}/idrange?from=1&to=9&type=ADMIN`] });
    expect((await get(`${TX}?type=FUNDING,ORDER_CANCEL`)).body).toMatchObject({ type: ['FUNDING', 'ORDER_CANCEL'], count: 3 });
    expect(ids((await get(`${TX}/idrange?from=1&to=10&type=FUNDING,ORDER_CANCEL`)).body)).toEqual(['2', '8', '10']);
    expect((await get(`${TX}?type=DAILY_FINANCING`)).body).toMatchObject({ count: 0, pages: [] });
    const unknown = await get(`${TX}?type=LIMIT_ORDER,NOPE`);
    expect(unknown).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'type'" } });
  });

  it('refuses bad page sizes, unreadable times and an inverted range', async () => {
    h = await harness();
    for (const size of ['0', '1001', 'abc', '-5', '1.5']) {
      expect(await get(`${TX}?pageSize=${size}`)).toEqual({
        status: 400,
        body: { errorCode: 'INVALID_PAGESIZE', errorMessage: 'The specified page size is invalid' },
      });
    }
    expect(await get(`${TX}?from=yesterday`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'from'" } });
    expect(await get(`${TX}?to=2024-13-01T00:00:00Z`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'to'" } });
    const inverted = await get(`${TX}?from=2024-01-03T00:00:00Z&to=2024-01-02T00:00:00Z`);
    expect(inverted.status).toBe(416);
    expect(typeof inverted.body['errorMessage']).toBe('string');
  });
});

describe('GET transactions/{transactionID}', () => {
  it('returns one transaction, 404 NO_SUCH_TRANSACTION for an unknown ID, 400 for a malformed one', async () => {
    h = await harness();
    const one = await get(`${TX}/2`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ transaction: { id: '2', type: 'TRANSFER_FUNDS', accountID: ACCOUNT }, lastTransactionID: '2' });
    const unix = await get(`${TX}/1`, { 'Accept-Datetime-Format': 'UNIX' });
    expect(unix.body['transaction']['time']).toBe(formatUnix(START));
    expect(await get(`${TX}/3`)).toEqual({
      status: 404,
      body: { errorCode: 'NO_SUCH_TRANSACTION', errorMessage: 'The Transaction ID specified does not exist', lastTransactionID: '2' },
    });
    expect(await get(`${TX}/abc`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'transactionID'" } });
    // Another account's log is its own.
    expect((await get(`/v3/accounts/${OTHER}/transactions/1`)).body['transaction']).toMatchObject({ accountID: OTHER, type: 'CREATE' });
  });
});

describe('GET transactions/idrange', () => {
  it('returns the inclusive range, clamped at the last transaction', async () => {
    h = await harness();
    restLimits(8); // 3..10
    const res = await get(`${TX}/idrange?from=3&to=5`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['3', '4', '5']);
    expect(res.body['lastTransactionID']).toBe('10');
    expect(ids((await get(`${TX}/idrange?from=9&to=50`)).body)).toEqual(['9', '10']);
    expect(ids((await get(`${TX}/idrange?from=10&to=10`)).body)).toEqual(['10']);
  });

  it('answers 416 for from > to, from beyond the log, and more than 1000 IDs; 400 for missing or bad IDs', async () => {
    h = await harness();
    restLimits(1098); // 1100 transactions
    expect((await get(`${TX}/idrange?from=5&to=4`)).status).toBe(416);
    expect((await get(`${TX}/idrange?from=1101&to=1200`)).status).toBe(416);
    expect(ids((await get(`${TX}/idrange?from=1&to=1000`)).body)).toHaveLength(1000);
    expect((await get(`${TX}/idrange?from=1&to=1001`)).status).toBe(416);
    expect((await get(`${TX}/idrange?from=101&to=5000`)).body['transactions']).toHaveLength(1000);
    expect(await get(`${TX}/idrange?from=1`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'to'" } });
    expect(await get(`${TX}/idrange?to=1`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'from'" } });
    expect(await get(`${TX}/idrange?from=0&to=3`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'from'" } });
    expect((await get(`${TX}/idrange?from=1&to=3&type=BAD`)).status).toBe(400);
  });
});

describe('GET transactions/sinceid', () => {
  it('returns transactions after the ID, ascending, at most 1000; 416 beyond the last ID', async () => {
    h = await harness();
    restLimits(1198); // 1200 transactions
    const first = (await get(`${TX}/sinceid?id=2`)).body;
    expect(ids(first)).toEqual(range(3, 1002));
    expect(first['lastTransactionID']).toBe('1200');
    expect(ids((await get(`${TX}/sinceid?id=1195`)).body)).toEqual(range(1196, 1200));
    expect(ids((await get(`${TX}/sinceid?id=0`)).body)).toEqual(range(1, 1000));
    expect(ids((await get(`${TX}/sinceid?id=1200`)).body)).toEqual([]);
    expect((await get(`${TX}/sinceid?id=1201`)).status).toBe(416);
    expect(await get(`${TX}/sinceid`)).toEqual({ status: 400, body: { errorMessage: "Invalid value specified for 'id'" } });
    expect(ids((await get(`${TX}/sinceid?id=0&type=ADMIN,FUNDING`)).body)).toEqual(['1', '2']);
  });
});
