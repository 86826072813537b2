/**
 * Enumerated values by context (spec/v3-interface.md 2.3, the note under the Order table):
 * Order resources spell DEFAULT as POSITION_DEFAULT, TRIGGER_DEFAULT and DEFAULT_FILL,
 * transactions as DEFAULT. Requests take either spelling. `enumSpelling: 'documented'` prints
 * DEFAULT everywhere, as OANDA's definitions do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiOptions } from '../../src/api/context.js';
import { EngineStrategyContext } from '../../src/backtest/context.js';
import { expectConformsTo } from '../support/api/contract.js';
import { ACCOUNT, harness, type Harness, type JsonBody } from '../support/api/harness.js';

const BASE = `/v3/accounts/${ACCOUNT}`;
let h: Harness | undefined;

afterEach(async () => {
  await h?.app.close();
  h = undefined;
});

async function server(options: Partial<ApiOptions> = {}): Promise<Harness> {
  h = await harness(options);
  return h;
}

/** A buy LIMIT below the market (rests), with the given extra request fields; its creation transaction. */
async function restingLimit(s: Harness, fields: Record<string, string> = {}): Promise<JsonBody> {
  const r = await s.request('POST', `${BASE}/orders`, {
    order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000', ...fields },
  });
  expect(r.statusCode).toBe(201);
  return r.json()['orderCreateTransaction'] as JsonBody;
}

async function orderResource(s: Harness, id: string): Promise<JsonBody> {
  const r = await s.request('GET', `${BASE}/orders/${id}`);
  expect(r.statusCode).toBe(200);
  return r.json()['order'] as JsonBody;
}

const SPELLINGS: [string, Record<string, string>][] = [
  ['no positionFill or triggerCondition', {}],
  ['DEFAULT', { positionFill: 'DEFAULT', triggerCondition: 'DEFAULT' }],
  ["the Order resource's POSITION_DEFAULT / TRIGGER_DEFAULT", { positionFill: 'POSITION_DEFAULT', triggerCondition: 'TRIGGER_DEFAULT' }],
];

describe('the interface spelling (the default)', () => {
  it.each(SPELLINGS)('create with %s: the transaction shows DEFAULT, the Order resource the interface spelling', async (_name, fields) => {
    const s = await server();
    const tx = await restingLimit(s, fields);
    expect(tx).toMatchObject({ type: 'LIMIT_ORDER', positionFill: 'DEFAULT', triggerCondition: 'DEFAULT', partialFill: 'DEFAULT' });
    expect(await orderResource(s, tx['id'] as string)).toMatchObject({
      type: 'LIMIT',
      positionFill: 'POSITION_DEFAULT',
      triggerCondition: 'TRIGGER_DEFAULT',
      partialFill: 'DEFAULT_FILL',
    });
    // The journal and the transaction endpoints keep DEFAULT.
    const read = await s.request('GET', `${BASE}/transactions/${tx['id'] as string}`);
    expect(read.json()['transaction']).toMatchObject({ positionFill: 'DEFAULT', triggerCondition: 'DEFAULT', partialFill: 'DEFAULT' });
  });

  it('other values are printed as sent in both contexts', async () => {
    const s = await server();
    const tx = await restingLimit(s, { positionFill: 'REDUCE_ONLY', triggerCondition: 'MID' });
    expect(tx).toMatchObject({ positionFill: 'REDUCE_ONLY', triggerCondition: 'MID' });
    expect(await orderResource(s, tx['id'] as string)).toMatchObject({ positionFill: 'REDUCE_ONLY', triggerCondition: 'MID' });
  });

  it('every Order resource: lists, pendingOrders, the account, changes, a trade and its dependent orders', async () => {
    const s = await server();
    const since = (await s.request('GET', `${BASE}/summary`)).json()['lastTransactionID'] as string;
    await restingLimit(s);
    const market = await s.request('POST', `${BASE}/orders`, {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', takeProfitOnFill: { price: '1.20000' } },
    });
    expect(market.statusCode).toBe(201);
    const tradeID = market.json()['orderFillTransaction']['tradeOpened']['tradeID'] as string;

    const entry = { type: 'LIMIT', positionFill: 'POSITION_DEFAULT', triggerCondition: 'TRIGGER_DEFAULT', partialFill: 'DEFAULT_FILL' };
    const takeProfit = { type: 'TAKE_PROFIT', triggerCondition: 'TRIGGER_DEFAULT' };
    const pending = (await s.request('GET', `${BASE}/pendingOrders`)).json()['orders'] as JsonBody[];
    expect(pending).toEqual([expect.objectContaining(takeProfit), expect.objectContaining(entry)]);
    const listed = (await s.request('GET', `${BASE}/orders`)).json()['orders'] as JsonBody[];
    expect(listed).toEqual(pending);
    const account = (await s.request('GET', `${BASE}`)).json()['account'] as JsonBody;
    expect(account['orders']).toEqual([expect.objectContaining(entry), expect.objectContaining(takeProfit)]);
    const trade = (await s.request('GET', `${BASE}/trades/${tradeID}`)).json()['trade'] as JsonBody;
    expect(trade['takeProfitOrder']).toMatchObject(takeProfit);

    const changes = (await s.request('GET', `${BASE}/changes?sinceTransactionID=${since}`)).json()['changes'] as JsonBody;
    // The filled MARKET order is an Order resource too; its transactions keep DEFAULT.
    expect(changes['ordersCreated']).toEqual([
      expect.objectContaining(entry),
      expect.objectContaining({ type: 'MARKET', positionFill: 'POSITION_DEFAULT', state: 'FILLED' }),
      expect.objectContaining(takeProfit),
    ]);
    // Within the contract checker's allowance for the interface's spellings, and only there.
    expectConformsTo('GET', '/v3/accounts/{accountID}/pendingOrders', 200, { orders: pending, lastTransactionID: '1' });
    expectConformsTo('GET', '/v3/accounts/{accountID}/changes', 200, { changes, lastTransactionID: '1' });
    expectConformsTo('GET', '/v3/accounts/{accountID}/trades/{tradeSpecifier}', 200, { trade, lastTransactionID: '1' });
    const transactions = changes['transactions'] as JsonBody[];
    const created = transactions.filter((t) => (t['type'] as string).endsWith('_ORDER'));
    expect(created.map((t) => [t['type'], t['positionFill'], t['triggerCondition']])).toEqual([
      ['LIMIT_ORDER', 'DEFAULT', 'DEFAULT'],
      ['MARKET_ORDER', 'DEFAULT', undefined],
      ['TAKE_PROFIT_ORDER', undefined, 'DEFAULT'],
    ]);
  });

  it('replace takes either spelling; the replacing transaction shows DEFAULT', async () => {
    const s = await server();
    const first = await restingLimit(s, { positionFill: 'OPEN_ONLY', triggerCondition: 'BID' });
    const r = await s.request('PUT', `${BASE}/orders/${first['id'] as string}`, {
      order: {
        type: 'LIMIT',
        instrument: 'EUR_USD',
        units: '100',
        price: '1.08000',
        positionFill: 'POSITION_DEFAULT',
        triggerCondition: 'TRIGGER_DEFAULT',
      },
    });
    expect(r.statusCode).toBe(201);
    const tx = r.json()['orderCreateTransaction'] as JsonBody;
    expect(tx).toMatchObject({ reason: 'REPLACEMENT', positionFill: 'DEFAULT', triggerCondition: 'DEFAULT' });
    expect(await orderResource(s, tx['id'] as string)).toMatchObject({
      positionFill: 'POSITION_DEFAULT',
      triggerCondition: 'TRIGGER_DEFAULT',
      replacesOrderID: first['id'],
    });
  });

  it("a dependent order's TRIGGER_DEFAULT is read as DEFAULT; a spelling for another field is malformed", async () => {
    const s = await server();
    const market = await s.request('POST', `${BASE}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
    const tradeID = market.json()['orderFillTransaction']['tradeOpened']['tradeID'] as string;
    const sl = await s.request('POST', `${BASE}/orders`, {
      order: { type: 'STOP_LOSS', tradeID, price: '1.00000', triggerCondition: 'TRIGGER_DEFAULT' },
    });
    expect(sl.statusCode).toBe(201);
    expect(sl.json()['orderCreateTransaction']).toMatchObject({ type: 'STOP_LOSS_ORDER', triggerCondition: 'DEFAULT' });

    const before = (await s.request('GET', `${BASE}/summary`)).json()['lastTransactionID'];
    for (const fields of [
      { positionFill: 'TRIGGER_DEFAULT' },
      { triggerCondition: 'POSITION_DEFAULT' },
      { positionFill: 'DEFAULT_FILL' },
    ]) {
      const r = await s.request('POST', `${BASE}/orders`, {
        order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000', ...fields },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json()['errorMessage']).toBe(`Invalid value specified for 'order.${Object.keys(fields)[0] as string}'`);
    }
    expect((await s.request('GET', `${BASE}/summary`)).json()['lastTransactionID']).toBe(before);
  });
});

describe("enumSpelling: 'documented'", () => {
  it.each(SPELLINGS)('create with %s: DEFAULT in the transaction and the Order resource', async (_name, fields) => {
    const s = await server({ enumSpelling: 'documented' });
    const tx = await restingLimit(s, fields);
    expect(tx).toMatchObject({ positionFill: 'DEFAULT', triggerCondition: 'DEFAULT', partialFill: 'DEFAULT' });
    expect(await orderResource(s, tx['id'] as string)).toMatchObject({
      positionFill: 'DEFAULT',
      triggerCondition: 'DEFAULT',
      partialFill: 'DEFAULT',
    });
  });

  it('the account, pendingOrders, changes and trades print DEFAULT too', async () => {
    const s = await server({ enumSpelling: 'documented' });
    const since = (await s.request('GET', `${BASE}/summary`)).json()['lastTransactionID'] as string;
    await restingLimit(s);
    await s.request('POST', `${BASE}/orders`, {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', takeProfitOnFill: { price: '1.20000' } },
    });
    const bodies = [
      (await s.request('GET', `${BASE}`)).json(),
      (await s.request('GET', `${BASE}/pendingOrders`)).json(),
      (await s.request('GET', `${BASE}/orders?state=ALL`)).json(),
      (await s.request('GET', `${BASE}/openTrades`)).json(),
      (await s.request('GET', `${BASE}/changes?sinceTransactionID=${since}`)).json(),
    ];
    const text = JSON.stringify(bodies);
    expect(text).not.toMatch(/POSITION_DEFAULT|TRIGGER_DEFAULT|DEFAULT_FILL/);
    expect(text).toMatch(/"positionFill":"DEFAULT"/);
    expect(text).toMatch(/"partialFill":"DEFAULT"/);
  });
});

describe("a backtest strategy's reads", () => {
  it('take the same spelling: the interface by default, DEFAULT when asked', async () => {
    const s = await server();
    const tx = await restingLimit(s);
    const id = tx['id'] as string;
    const interfaceCtx = new EngineStrategyContext(s.engine, ACCOUNT, {});
    const documentedCtx = new EngineStrategyContext(s.engine, ACCOUNT, {}, 'documented');
    expect(interfaceCtx.order(id)).toMatchObject({ positionFill: 'POSITION_DEFAULT', partialFill: 'DEFAULT_FILL' });
    expect(interfaceCtx.account().orders[0]).toMatchObject({ triggerCondition: 'TRIGGER_DEFAULT' });
    expect(documentedCtx.pendingOrders()[0]).toMatchObject({
      positionFill: 'DEFAULT',
      triggerCondition: 'DEFAULT',
      partialFill: 'DEFAULT',
    });
    expect(documentedCtx.account().orders[0]).toMatchObject({ positionFill: 'DEFAULT' });
  });
});
