import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, harness, type Harness, type JsonBody } from '../support/api/harness.js';

/**
 * DateTimes without a zone designator are New York local time, as real v20 reads them: a
 * practice-server response turned "gtdTime": "2018-07-02T00:00:00" into
 * "2018-07-02T04:00:00.000000000Z" (oandapyV20's orders notebook).
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

async function limitGtd(gtdTime: string): Promise<{ status: number; body: JsonBody }> {
  const res = await (h as Harness).request('POST', `/v3/accounts/${ACCOUNT}/orders`, {
    order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000', timeInForce: 'GTD', gtdTime },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('zoneless DateTimes', () => {
  it('a gtdTime without a zone is New York time: +4 h in summer, +5 h in winter, echoed in UTC', async () => {
    h = await harness();
    const summer = await limitGtd('2024-07-02T00:00:00');
    expect(summer.status).toBe(201);
    expect(summer.body['orderCreateTransaction']).toMatchObject({ gtdTime: '2024-07-02T04:00:00.000000000Z' });
    const winter = await limitGtd('2024-01-10T17:30:00.5');
    expect(winter.body['orderCreateTransaction']).toMatchObject({ gtdTime: '2024-01-10T22:30:00.500000000Z' });
    const id = (winter.body['orderCreateTransaction'] as JsonBody)['id'] as string;
    expect((await h.request('GET', `/v3/accounts/${ACCOUNT}/orders/${id}`)).json()['order']).toMatchObject({
      gtdTime: '2024-01-10T22:30:00.500000000Z',
    });
  });

  it('on-fill orders and the trade-orders endpoint read them the same way', async () => {
    h = await harness();
    const res = await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, {
      order: {
        type: 'MARKET',
        instrument: 'EUR_USD',
        units: '100',
        takeProfitOnFill: { price: '1.20000', timeInForce: 'GTD', gtdTime: '2024-03-20T09:00:00' },
      },
    });
    expect(res.statusCode).toBe(201);
    const tradeID = res.json()['orderFillTransaction']['tradeOpened']['tradeID'] as string;
    const trade = (await h.request('GET', `/v3/accounts/${ACCOUNT}/trades/${tradeID}`)).json()['trade'] as JsonBody;
    expect(trade['takeProfitOrder']).toMatchObject({ gtdTime: '2024-03-20T13:00:00.000000000Z' });
    const set = await h.request('PUT', `/v3/accounts/${ACCOUNT}/trades/${tradeID}/orders`, {
      stopLoss: { price: '1.00000', timeInForce: 'GTD', gtdTime: '2024-02-01T12:00:00' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()['stopLossOrderTransaction']).toMatchObject({ gtdTime: '2024-02-01T17:00:00.000000000Z' });
  });

  it('query DateTimes too (candles from/to), and a malformed one is still 400', async () => {
    h = await harness();
    const zoneless = await h.request(
      'GET',
      '/v3/instruments/EUR_USD/candles?granularity=M1&from=2024-01-02T07:00:00&to=2024-01-02T07:10:00',
    );
    const utc = await h.request('GET', '/v3/instruments/EUR_USD/candles?granularity=M1&from=2024-01-02T12:00:00Z&to=2024-01-02T12:10:00Z');
    expect(zoneless.statusCode).toBe(200);
    expect(zoneless.json()).toEqual(utc.json());
    expect((await limitGtd('2024-07-02T25:00:00')).status).toBe(400);
    expect((await limitGtd('2024-07-02 00:00:00')).status).toBe(400);
  });
});
