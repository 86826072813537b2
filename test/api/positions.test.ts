import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/app.js';
import { startTestApi } from '../support/api/harness.js';
import { ACCOUNT, MAY_T0 as START, SECOND } from '../support/constants.js';

const A = `/v3/accounts/${ACCOUNT}`;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are read field by field

interface Reply {
  status: number;
  body: Body;
}

let app: App;

async function start(hedgingEnabled = false): Promise<void> {
  ({ app } = await startTestApi({
    accounts: [{ id: ACCOUNT, currency: 'USD', hedgingEnabled }],
    start: START,
    tokens: [{ token: 'T', accounts: '*' }],
    quotes: [
      { instrument: 'EUR_USD', time: START + SECOND, bid: 1.1, ask: 1.1002 },
      { instrument: 'USD_JPY', time: START + SECOND, bid: 150, ask: 150.02 },
    ],
  }));
}

beforeEach(async () => {
  await start();
});

afterEach(async () => {
  await app.close();
});

async function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await app.inject({
    method,
    url: `${A}${path}`,
    headers: { authorization: 'Bearer T', ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json() };
}

async function open(units: string, instrument = 'EUR_USD'): Promise<string> {
  const r = await call('POST', '/orders', { order: { type: 'MARKET', instrument, units } });
  expect(r.status).toBe(201);
  return r.body['orderFillTransaction'].tradeOpened.tradeID as string;
}

async function lastId(): Promise<string> {
  return (await call('GET', '/summary')).body['lastTransactionID'] as string;
}

const FLAT_SIDE = {
  units: '0',
  pl: '0.0000',
  unrealizedPL: '0.0000',
  resettablePL: '0.0000',
  financing: '0.0000',
  dividendAdjustment: '0.0000',
  guaranteedExecutionFees: '0.0000',
};

const instruments = (body: Body): string[] => (body['positions'] as Body[]).map((p) => p['instrument'] as string);

describe('GET positions and openPositions', () => {
  it('lists nothing before the first trade', async () => {
    const last = await lastId();
    expect(await call('GET', '/positions')).toEqual({ status: 200, body: { positions: [], lastTransactionID: last } });
    expect(await call('GET', '/openPositions')).toEqual({ status: 200, body: { positions: [], lastTransactionID: last } });
  });

  it('positions lists every instrument ever traded, openPositions only those with open trades', async () => {
    const eur = await open('100');
    await open('-20', 'USD_JPY');
    await call('PUT', `/trades/${eur}/close`);
    const all = await call('GET', '/positions');
    expect(all.status).toBe(200);
    expect(instruments(all.body)).toEqual(['EUR_USD', 'USD_JPY']);
    expect(all.body['lastTransactionID']).toBe(await lastId());
    const flat = (all.body['positions'] as Body[])[0] as Body;
    expect(flat).toMatchObject({
      instrument: 'EUR_USD',
      pl: '-0.0200',
      unrealizedPL: '0.0000',
      long: { units: '0', pl: '-0.0200' },
      short: { units: '0' },
    });
    expect(flat['long']['tradeIDs']).toBeUndefined();
    // A flat position ends at unrealizedPL, as live servers print one: no marginUsed.
    expect(Object.keys(flat).at(-1)).toBe('unrealizedPL');
    const openOnly = await call('GET', '/openPositions');
    expect(openOnly.status).toBe(200);
    expect(instruments(openOnly.body)).toEqual(['USD_JPY']);
    expect(openOnly.body['positions'][0]).toMatchObject({ short: { units: '-20', averagePrice: '150.000' }, long: { units: '0' } });
  });
});

describe('GET positions/{instrument}', () => {
  it('returns the position with both sides', async () => {
    const a = await open('100');
    const b = await open('50');
    const r = await call('GET', '/positions/EUR_USD');
    expect(r.status).toBe(200);
    expect(r.body['lastTransactionID']).toBe(await lastId());
    expect(r.body['position']).toEqual({
      instrument: 'EUR_USD',
      long: {
        units: '150',
        averagePrice: '1.10020',
        tradeIDs: [a, b],
        pl: '0.0000',
        unrealizedPL: '-0.0300',
        resettablePL: '0.0000',
        financing: '0.0000',
        dividendAdjustment: '0.0000',
        guaranteedExecutionFees: '0.0000',
      },
      short: FLAT_SIDE,
      pl: '0.0000',
      resettablePL: '0.0000',
      financing: '0.0000',
      commission: '0.0000',
      dividendAdjustment: '0.0000',
      guaranteedExecutionFees: '0.0000',
      unrealizedPL: '-0.0300',
      marginUsed: expect.stringMatching(/^\d+\.\d{4}$/),
    });
  });

  it('an instrument never traded is a flat position with the same fields (and no marginUsed, as a flat one)', async () => {
    await open('100');
    const r = await call('GET', '/positions/GBP_USD');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      position: {
        instrument: 'GBP_USD',
        long: FLAT_SIDE,
        short: FLAT_SIDE,
        pl: '0.0000',
        resettablePL: '0.0000',
        financing: '0.0000',
        commission: '0.0000',
        dividendAdjustment: '0.0000',
        guaranteedExecutionFees: '0.0000',
        unrealizedPL: '0.0000',
      },
      lastTransactionID: await lastId(),
    });
    const traded = (await call('GET', '/positions/EUR_USD')).body['position'] as Body;
    // The fields of an open position but the marginUsed of its open units.
    expect([...Object.keys(r.body['position']), 'marginUsed']).toEqual(Object.keys(traded));
    // Viewing it does not make it a traded instrument.
    expect(instruments((await call('GET', '/positions')).body)).toEqual(['EUR_USD']);
  });

  it('refuses an unknown or malformed instrument with 400', async () => {
    for (const name of ['ABC_XYZ', 'eurusd', 'EUR-USD']) {
      const r = await call('GET', `/positions/${name}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessage: "Invalid value specified for 'instrument'" });
    }
  });
});

describe('PUT positions/{instrument}/close', () => {
  it('closes the whole long side', async () => {
    const a = await open('100');
    const b = await open('50');
    const r = await call('PUT', '/positions/EUR_USD/close', { longUnits: 'ALL' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'longOrderCreateTransaction',
      'longOrderFillTransaction',
      'relatedTransactionIDs',
      'lastTransactionID',
    ]);
    const create = r.body['longOrderCreateTransaction'] as Body;
    const fill = r.body['longOrderFillTransaction'] as Body;
    expect(create).toMatchObject({
      type: 'MARKET_ORDER',
      instrument: 'EUR_USD',
      units: '-150',
      timeInForce: 'FOK',
      positionFill: 'REDUCE_ONLY',
      reason: 'POSITION_CLOSEOUT',
      longPositionCloseout: { instrument: 'EUR_USD', units: 'ALL' },
    });
    expect(fill).toMatchObject({
      type: 'ORDER_FILL',
      orderID: create['id'],
      units: '-150',
      price: '1.10000',
      reason: 'MARKET_ORDER_POSITION_CLOSEOUT',
    });
    expect((fill['tradesClosed'] as Body[]).map((t) => t['tradeID'])).toEqual([a, b]);
    expect(r.body['relatedTransactionIDs']).toEqual([create['id'], fill['id']]);
    expect(r.body['lastTransactionID']).toBe(fill['id']);
    expect((await call('GET', '/openPositions')).body['positions']).toEqual([]);
    expect((await call('GET', '/positions/EUR_USD')).body['position']['long']).toMatchObject({ units: '0', pl: '-0.0300' });
  });

  it('closes part of the long side, oldest trade first', async () => {
    const a = await open('100');
    const b = await open('50');
    const r = await call('PUT', '/positions/EUR_USD/close', { longUnits: '120', shortUnits: 'NONE' });
    expect(r.status).toBe(200);
    expect(r.body['longOrderCreateTransaction']).toMatchObject({
      units: '-120',
      longPositionCloseout: { instrument: 'EUR_USD', units: '120' },
    });
    expect(r.body['longOrderFillTransaction']['tradesClosed']).toMatchObject([{ tradeID: a, units: '-100' }]);
    expect(r.body['longOrderFillTransaction']['tradeReduced']).toMatchObject({ tradeID: b, units: '-20' });
    expect(r.body['shortOrderCreateTransaction']).toBeUndefined();
    expect((await call('GET', '/positions/EUR_USD')).body['position']['long']).toMatchObject({ units: '30', tradeIDs: [b] });
  });

  it('closes the short side', async () => {
    await open('-100', 'USD_JPY');
    const r = await call('PUT', '/positions/USD_JPY/close', { shortUnits: 'ALL' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'shortOrderCreateTransaction',
      'shortOrderFillTransaction',
      'relatedTransactionIDs',
      'lastTransactionID',
    ]);
    expect(r.body['shortOrderCreateTransaction']).toMatchObject({
      units: '100',
      shortPositionCloseout: { instrument: 'USD_JPY', units: 'ALL' },
    });
    expect(r.body['shortOrderFillTransaction']).toMatchObject({ units: '100', price: '150.020', reason: 'MARKET_ORDER_POSITION_CLOSEOUT' });
    expect((await call('GET', '/positions/USD_JPY')).body['position']['short']['units']).toBe('0');
  });

  it('closes both sides of a hedged position', async () => {
    await app.close();
    await start(true);
    await open('100');
    await open('-40');
    const before = (await call('GET', '/positions/EUR_USD')).body['position'] as Body;
    expect(before['long']['units']).toBe('100');
    expect(before['short']['units']).toBe('-40');
    const r = await call('PUT', '/positions/EUR_USD/close', { longUnits: 'ALL', shortUnits: 'ALL' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual([
      'longOrderCreateTransaction',
      'longOrderFillTransaction',
      'shortOrderCreateTransaction',
      'shortOrderFillTransaction',
      'relatedTransactionIDs',
      'lastTransactionID',
    ]);
    expect(r.body['longOrderFillTransaction']['units']).toBe('-100');
    expect(r.body['shortOrderFillTransaction']['units']).toBe('40');
    expect(r.body['relatedTransactionIDs']).toHaveLength(4);
    expect((await call('GET', '/openPositions')).body['positions']).toEqual([]);
  });

  it('rejects closing a side that does not exist (400)', async () => {
    const empty = await call('PUT', '/positions/EUR_USD/close', { longUnits: 'ALL' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      longOrderRejectTransaction: {
        type: 'MARKET_ORDER_REJECT',
        instrument: 'EUR_USD',
        reason: 'POSITION_CLOSEOUT',
        longPositionCloseout: { instrument: 'EUR_USD', units: 'ALL' },
        rejectReason: 'CLOSEOUT_POSITION_DOESNT_EXIST',
      },
      errorCode: 'CLOSEOUT_POSITION_DOESNT_EXIST',
      errorMessage: 'The Position requested to be closed out does not exist',
    });
    expect(empty.body['relatedTransactionIDs']).toEqual([empty.body['longOrderRejectTransaction']['id']]);
    expect(empty.body['lastTransactionID']).toBe(empty.body['longOrderRejectTransaction']['id']);
    await open('100');
    const short = await call('PUT', '/positions/EUR_USD/close', { shortUnits: 'ALL' });
    expect(short.status).toBe(400);
    expect(short.body['shortOrderRejectTransaction']).toMatchObject({
      rejectReason: 'CLOSEOUT_POSITION_DOESNT_EXIST',
      shortPositionCloseout: { units: 'ALL' },
    });
    expect(short.body['longOrderRejectTransaction']).toBeUndefined();
    // Nothing was closed.
    expect((await call('GET', '/positions/EUR_USD')).body['position']['long']['units']).toBe('100');
  });

  it('rejects a request that closes nothing, too many units and non-positive units (400)', async () => {
    await open('100');
    const none = await call('PUT', '/positions/EUR_USD/close', { longUnits: 'NONE', shortUnits: 'NONE' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      errorCode: 'CLOSEOUT_POSITION_INCOMPLETE_SPECIFICATION',
      errorMessage: 'The Position closeout request specifies neither long nor short units',
    });
    expect(none.body['longOrderRejectTransaction']['rejectReason']).toBe('CLOSEOUT_POSITION_INCOMPLETE_SPECIFICATION');
    expect((await call('PUT', '/positions/EUR_USD/close', {})).body['errorCode']).toBe('CLOSEOUT_POSITION_INCOMPLETE_SPECIFICATION');
    const tooMany = await call('PUT', '/positions/EUR_USD/close', { longUnits: '101' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      errorCode: 'CLOSEOUT_POSITION_UNITS_EXCEED_POSITION_SIZE',
      longOrderRejectTransaction: { longPositionCloseout: { units: '101' } },
    });
    const zero = await call('PUT', '/positions/EUR_USD/close', { longUnits: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body['errorCode']).toBe('CLOSEOUT_POSITION_PARTIAL_UNITS_MISSING');
    expect((await call('GET', '/positions/EUR_USD')).body['position']['long']['units']).toBe('100');
  });

  it('refuses malformed units, an unknown instrument and a missing body with 400, writing nothing', async () => {
    await open('100');
    const before = await lastId();
    const cases: [string, unknown, string][] = [
      ['EUR_USD', { longUnits: 'SOME' }, 'longUnits'],
      ['EUR_USD', { shortUnits: true }, 'shortUnits'],
      ['EUR_USD', { longUnits: 'ALL', longClientExtensions: { id: false } }, 'longClientExtensions.id'],
      ['ABC_XYZ', { longUnits: 'ALL' }, 'instrument'],
      ['eur_usd', { longUnits: 'ALL' }, 'instrument'],
    ];
    for (const [instrument, payload, field] of cases) {
      const r = await call('PUT', `/positions/${instrument}/close`, payload);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ errorMessage: `Invalid value specified for '${field}'` });
    }
    const noBody = await call('PUT', '/positions/EUR_USD/close');
    expect(noBody.status).toBe(400);
    expect(noBody.body['errorMessage']).toMatch(/^Invalid value specified for /);
    expect(await lastId()).toBe(before);
  });
});

describe('positions paths: auth, account and method', () => {
  it('answers 401 without a valid token', async () => {
    for (const path of ['/positions', '/openPositions', '/positions/EUR_USD']) {
      const r = await app.inject({ method: 'GET', url: `${A}${path}` });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ errorMessage: 'Insufficient authorization to perform request.' });
    }
    const close = await app.inject({
      method: 'PUT',
      url: `${A}/positions/EUR_USD/close`,
      headers: { authorization: 'Bearer wrong' },
      payload: { longUnits: 'ALL' },
    });
    expect(close.statusCode).toBe(401);
  });

  it('answers 404 for an unknown account', async () => {
    for (const [method, path] of [
      ['GET', '/positions'],
      ['GET', '/positions/EUR_USD'],
      ['PUT', '/positions/EUR_USD/close'],
    ] as const) {
      const r = await app.inject({
        method,
        url: `/v3/accounts/101-004-1234567-999${path}`,
        headers: { authorization: 'Bearer T' },
        payload: { longUnits: 'ALL' },
      });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({ errorMessage: 'The specified Account does not exist.' });
    }
  });

  it('answers 405 for a wrong method on a positions path', async () => {
    for (const [method, path] of [
      ['DELETE', '/positions/EUR_USD'],
      ['POST', '/positions'],
      ['GET', '/positions/EUR_USD/close'],
      ['PUT', '/openPositions'],
    ] as const) {
      const r = await call(method, path);
      expect(r.status).toBe(405);
      expect(r.body).toEqual({ errorMessage: 'The method is not allowed for the requested resource.' });
    }
  });
});
