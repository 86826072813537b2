import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, HARNESS_TOKEN, harness, type Harness, type JsonBody } from '../support/api/harness.js';

/**
 * DecimalNumbers sent as JSON numbers, as bots and OANDA's own JavaScript sample send them
 * ("units": 100): real v20 accepts them (oandapyV20's trade-close fixture). Each is read as its
 * exact source text, never through a binary double, so it means what the same string means.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

async function send(method: 'POST' | 'PUT' | 'PATCH', path: string, json: string): Promise<{ status: number; body: JsonBody }> {
  const res = await (h as Harness).app.inject({
    method,
    url: `/v3/accounts/${ACCOUNT}${path}`,
    headers: { authorization: `Bearer ${HARNESS_TOKEN}`, 'content-type': 'application/json' },
    payload: json,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('JSON numbers where v20 takes a DecimalNumber', () => {
  it('order units, price and on-fill distance as numbers mean the same as the strings', async () => {
    h = await harness();
    const market = await send(
      'POST',
      '/orders',
      '{"order":{"type":"MARKET","instrument":"EUR_USD","units":100,"stopLossOnFill":{"distance":0.00500}}}',
    );
    expect(market.status).toBe(201);
    expect(market.body['orderCreateTransaction']).toMatchObject({ units: '100', stopLossOnFill: { distance: '0.00500' } });
    const limit = await send('POST', '/orders', '{"order":{"type":"LIMIT","instrument":"EUR_USD","units":-25,"price":1.20000}}');
    expect(limit.status).toBe(201);
    // The source text, trailing zeros and all: a double would have printed 1.2.
    expect(limit.body['orderCreateTransaction']).toMatchObject({ units: '-25', price: '1.20000' });
  });

  it('trade close units, position close units and the margin rate', async () => {
    h = await harness();
    const open = await send('POST', '/orders', '{"order":{"type":"MARKET","instrument":"EUR_USD","units":"300"}}');
    const tradeID = ((open.body['orderFillTransaction'] as JsonBody)['tradeOpened'] as JsonBody)['tradeID'] as string;
    const close = await send('PUT', `/trades/${tradeID}/close`, '{"units":100}');
    expect(close.status).toBe(200);
    expect(close.body['orderFillTransaction']).toMatchObject({ units: '-100' });
    const position = await send('PUT', '/positions/EUR_USD/close', '{"longUnits":50}');
    expect(position.status).toBe(200);
    expect(position.body['longOrderFillTransaction']).toMatchObject({ units: '-50' });
    const configured = await send('PATCH', '/configuration', '{"marginRate":0.05}');
    expect(configured.status).toBe(200);
    expect(configured.body['clientConfigureTransaction']).toMatchObject({ marginRate: '0.05' });
  });

  it('an exponent form is not a DecimalNumber: v20 400, no transaction', async () => {
    h = await harness();
    const res = await send('POST', '/orders', '{"order":{"type":"MARKET","instrument":"EUR_USD","units":1e2}}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorMessage: "Invalid value specified for 'order.units'" });
  });

  it('a body with __proto__ is still refused, and a repeated key keeps its last value', async () => {
    h = await harness();
    const proto = await send('POST', '/orders', '{"order":{"type":"MARKET","instrument":"EUR_USD","units":"1","__proto__":{"x":1}}}');
    expect(proto.status).toBe(400);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    const twice = await send('POST', '/orders', '{"order":{"type":"MARKET","instrument":"EUR_USD","units":"1","units":"7"}}');
    expect(twice.body['orderCreateTransaction']).toMatchObject({ units: '7' });
  });
});
