import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/app.js';
import { ConfigError, loadConfigFile } from '../../src/cli/config.js';
import { startTestApi } from '../support/api/harness.js';
import { ACCOUNT, OTHER, SECOND, T0 } from '../support/constants.js';

/**
 * Accounts tied to a third-party trading terminal (MT4; src/account/third-party-terminal.ts): the
 * `mt4AccountID` account option from the config file and POST /sim/accounts, shown in GET
 * /v3/accounts as v20's AccountProperties does, and every endpoint that takes client extensions
 * refusing them with its reject transaction, v20's 400 body, and no other change.
 */

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are read field by field

const MT4_ID = 5012345;
const USER = { authorization: 'Bearer user-token' };
const ADMIN = { authorization: 'Bearer admin-secret' };
const NEW = '101-004-1234567-003';

let app: App;
beforeEach(async () => {
  ({ app } = await startTestApi({
    accounts: [
      { id: ACCOUNT, currency: 'USD', mt4AccountID: MT4_ID },
      { id: OTHER, currency: 'USD' },
    ],
    start: T0,
    tokens: [{ token: 'user-token', accounts: '*' }],
    quotes: [{ instrument: 'EUR_USD', time: T0 + SECOND, bid: 1.1, ask: 1.1002 }],
    api: { adminToken: 'admin-secret' },
  }));
});
afterEach(async () => {
  await app.close();
});

async function call(
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  payload?: unknown,
  headers = USER,
): Promise<{ status: number; body: Body }> {
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  return { status: res.statusCode, body: res.json() };
}

const on = (account: string, rest: string): string => `/v3/accounts/${account}${rest}`;

/** What a client can read of an account but its last transaction ID: orders in any state, trades, positions, summary. */
async function snapshot(account: string): Promise<unknown> {
  const { body } = await call('GET', on(account, ''));
  const { lastTransactionID: _, ...rest } = body['account'] as Body;
  const orders = (await call('GET', on(account, '/orders?state=ALL'))).body['orders'];
  const trades = (await call('GET', on(account, '/trades?state=ALL'))).body['trades'];
  return { account: rest, orders, trades };
}

/** A pending LIMIT (3) and an open trade (5) on the MT4 account, made without extensions. */
async function book(): Promise<void> {
  expect(
    (await call('POST', on(ACCOUNT, '/orders'), { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '1000', price: '1.09000' } }))
      .status,
  ).toBe(201);
  const market = await call('POST', on(ACCOUNT, '/orders'), { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000' } });
  expect(market.body['orderFillTransaction'].tradeOpened.tradeID).toBe('5');
}

/** Sends a request that must be refused: 400, the reject under `key`, v20's error fields, and nothing else changed. */
async function refused(method: 'POST' | 'PUT', rest: string, payload: unknown, key: string, expected: Body): Promise<Body> {
  const before = await snapshot(ACCOUNT);
  const last = (await call('GET', on(ACCOUNT, '/summary'))).body['lastTransactionID'] as string;
  const reply = await call(method, on(ACCOUNT, rest), payload);
  const id = String(Number(last) + 1);
  expect(reply.status).toBe(400);
  expect(reply.body).toEqual({
    [key]: expect.objectContaining({ id, batchID: id, ...expected }),
    relatedTransactionIDs: [id],
    lastTransactionID: id,
    errorCode: expected['rejectReason'],
    errorMessage: expect.any(String),
  });
  expect(await snapshot(ACCOUNT)).toEqual(before);
  // v20 records the refusal in the account's history.
  expect((await call('GET', on(ACCOUNT, `/transactions/${id}`))).body['transaction']).toEqual(reply.body[key]);
  return reply.body;
}

describe('GET /v3/accounts', () => {
  it('shows mt4AccountID for the MT4 account only, between id and tags as AccountProperties has it', async () => {
    const { status, body } = await call('GET', '/v3/accounts');
    expect(status).toBe(200);
    expect(body['accounts']).toEqual([
      { id: ACCOUNT, mt4AccountID: MT4_ID, tags: [] },
      { id: OTHER, tags: [] },
    ]);
    expect(Object.keys(body['accounts'][0])).toEqual(['id', 'mt4AccountID', 'tags']);
  });
});

describe('order endpoints on an MT4 account', () => {
  it('POST orders with clientExtensions: 400 MARKET_ORDER_REJECT CLIENT_ORDER_ID_INVALID, no order, no trade', async () => {
    const body = await refused(
      'POST',
      '/orders',
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '100', clientExtensions: { id: 'mine', tag: 'x' } } },
      'orderRejectTransaction',
      {
        type: 'MARKET_ORDER_REJECT',
        reason: 'CLIENT_ORDER',
        clientExtensions: { id: 'mine', tag: 'x' },
        rejectReason: 'CLIENT_ORDER_ID_INVALID',
      },
    );
    expect(body['errorMessage']).toBe('The client Order ID specified is invalid');
    expect((await call('GET', on(ACCOUNT, '/orders/@mine'))).status).toBe(404);
  });

  it('POST orders with tradeClientExtensions or on-fill clientExtensions: their own field reasons', async () => {
    await refused(
      'POST',
      '/orders',
      { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09000', tradeClientExtensions: { comment: 'c' } } },
      'orderRejectTransaction',
      { type: 'LIMIT_ORDER_REJECT', rejectReason: 'CLIENT_TRADE_COMMENT_INVALID' },
    );
    await refused(
      'POST',
      '/orders',
      {
        order: {
          type: 'MARKET',
          instrument: 'EUR_USD',
          units: '100',
          stopLossOnFill: { distance: '0.01000', clientExtensions: { tag: 's' } },
        },
      },
      'orderRejectTransaction',
      {
        type: 'MARKET_ORDER_REJECT',
        stopLossOnFill: { distance: '0.01000', timeInForce: 'GTC', clientExtensions: { tag: 's' } },
        rejectReason: 'STOP_LOSS_ON_FILL_CLIENT_ORDER_TAG_INVALID',
      },
    );
  });

  it('PUT orders/{id} with clientExtensions: 400 LIMIT_ORDER_REJECT (REPLACEMENT); the order is not cancelled', async () => {
    await book();
    await refused(
      'PUT',
      '/orders/3',
      { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '2000', price: '1.08000', clientExtensions: { id: 'r' } } },
      'orderRejectTransaction',
      { type: 'LIMIT_ORDER_REJECT', reason: 'REPLACEMENT', intendedReplacesOrderID: '3', rejectReason: 'CLIENT_ORDER_ID_INVALID' },
    );
    expect((await call('GET', on(ACCOUNT, '/orders/3'))).body['order']).toMatchObject({ state: 'PENDING', price: '1.09000' });
  });

  it('PUT orders/{id}/clientExtensions: 400 ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT', async () => {
    await book();
    await refused(
      'PUT',
      '/orders/3/clientExtensions',
      { clientExtensions: { comment: 'note' }, tradeClientExtensions: { id: 'T' } },
      'orderClientExtensionsModifyRejectTransaction',
      {
        type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT',
        orderID: '3',
        clientExtensionsModify: { comment: 'note' },
        tradeClientExtensionsModify: { id: 'T' },
        rejectReason: 'CLIENT_ORDER_COMMENT_INVALID',
      },
    );
    await refused(
      'PUT',
      '/orders/3/clientExtensions',
      { tradeClientExtensions: { tag: 't' } },
      'orderClientExtensionsModifyRejectTransaction',
      { type: 'ORDER_CLIENT_EXTENSIONS_MODIFY_REJECT', rejectReason: 'CLIENT_TRADE_TAG_INVALID' },
    );
  });
});

describe('trade endpoints on an MT4 account', () => {
  it('PUT trades/{id}/clientExtensions: 400 TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT', async () => {
    await book();
    await refused('PUT', '/trades/5/clientExtensions', { clientExtensions: { id: 'T' } }, 'tradeClientExtensionsModifyRejectTransaction', {
      type: 'TRADE_CLIENT_EXTENSIONS_MODIFY_REJECT',
      tradeID: '5',
      tradeClientExtensionsModify: { id: 'T' },
      rejectReason: 'CLIENT_TRADE_ID_INVALID',
    });
  });

  it('PUT trades/{id}/orders with takeProfit.clientExtensions: 400 TAKE_PROFIT_ORDER_REJECT', async () => {
    await book();
    await refused(
      'PUT',
      '/trades/5/orders',
      { takeProfit: { price: '1.20000', clientExtensions: { id: 'tp' } } },
      'takeProfitOrderRejectTransaction',
      { type: 'TAKE_PROFIT_ORDER_REJECT', tradeID: '5', rejectReason: 'CLIENT_ORDER_ID_INVALID' },
    );
  });

  it('requests without extensions work as on any account: trade orders, close', async () => {
    await book();
    expect((await call('PUT', on(ACCOUNT, '/trades/5/orders'), { takeProfit: { price: '1.20000' } })).status).toBe(200);
    const close = await call('PUT', on(ACCOUNT, '/trades/5/close'));
    expect(close.status).toBe(200);
    expect(close.body['orderFillTransaction']).toMatchObject({ tradesClosed: [{ tradeID: '5' }] });
  });
});

describe('an ordinary account', () => {
  it('takes the same client extensions', async () => {
    const order = {
      type: 'MARKET',
      instrument: 'EUR_USD',
      units: '100',
      clientExtensions: { id: 'mine' },
      tradeClientExtensions: { id: 'T' },
    };
    const reply = await call('POST', on(OTHER, '/orders'), { order });
    expect(reply.status).toBe(201);
    const trade = reply.body['orderFillTransaction'].tradeOpened.tradeID as string;
    expect((await call('PUT', on(OTHER, `/trades/${trade}/clientExtensions`), { clientExtensions: { tag: 'x' } })).status).toBe(200);
  });
});

describe('POST /sim/accounts', () => {
  it('opens an MT4 account with mt4AccountID: listed with it, refusing client extensions', async () => {
    const created = await call('POST', '/sim/accounts', { id: NEW, currency: 'USD', balance: '1000', mt4AccountID: 42 }, ADMIN);
    expect(created.status).toBe(201);
    expect((await call('GET', '/v3/accounts')).body['accounts']).toContainEqual({ id: NEW, mt4AccountID: 42, tags: [] });
    const order = await call('POST', on(NEW, '/orders'), {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '10', clientExtensions: { tag: 't' } },
    });
    expect(order.status).toBe(400);
    expect(order.body).toMatchObject({ errorCode: 'CLIENT_ORDER_TAG_INVALID', orderRejectTransaction: { type: 'MARKET_ORDER_REJECT' } });
  });

  it.each([['42'], [0], [-1], [1.5], [true], [null]])(
    'refuses mt4AccountID %j with a 400 naming the field; nothing is opened',
    async (value) => {
      const reply = await call('POST', '/sim/accounts', { id: NEW, currency: 'USD', mt4AccountID: value }, ADMIN);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        errorMessage:
          "Invalid value specified for 'mt4AccountID': must be a positive integer, e.g. 5012345 (the MT4 login the account is tied to)",
      });
      expect((await call('GET', '/v3/accounts')).body['accounts']).toHaveLength(2);
    },
  );
});

describe('the serve config file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-mt4-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (accounts: unknown): string => {
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ accounts }));
    return file;
  };

  it('takes mt4AccountID per account', () => {
    const config = loadConfigFile(
      write([
        { id: ACCOUNT, currency: 'USD', mt4AccountID: MT4_ID },
        { id: OTHER, currency: 'USD' },
      ]),
    );
    expect(config.accounts).toEqual([
      { id: ACCOUNT, currency: 'USD', mt4AccountID: MT4_ID },
      { id: OTHER, currency: 'USD' },
    ]);
  });

  it('names the account and field of a bad value', () => {
    expect(() => loadConfigFile(write([{ id: ACCOUNT, currency: 'USD', mt4AccountID: 'MT4' }]))).toThrow(ConfigError);
    expect(() => loadConfigFile(write([{ id: ACCOUNT, currency: 'USD', mt4AccountID: 'MT4' }]))).toThrow(
      ': accounts[0].mt4AccountID: must be a positive integer',
    );
  });
});
