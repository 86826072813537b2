/**
 * The official OANDA JavaScript client (`@oanda/v20` 3.0.25, callback-based, plain http when
 * ssl=false) pointed at a `v20sim serve` process on loopback, driven through a whole trading
 * session. Assertions
 * are on what the client hands back: `response.statusCode` (a string) and `response.body`, whose
 * resources and transactions the client has wrapped in its own classes.
 *
 * Endpoints that have not landed yet fail here on purpose: the client must work against all of
 * them.
 */
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatRfc3339 } from '../../src/domain/time.js';
import { ACCOUNT, ADMIN_TOKEN, HEDGED, OTHER, OTHER_TOKEN, START_QUOTES, T0, TOKEN, field } from '../support/api/harness.js';
import { killAll, startServeWithConfig, type ServeProcess } from '../support/serve-process.js';

const require = createRequire(import.meta.url);

interface V20Response {
  readonly method: string;
  readonly path: string;
  /** The client keeps the status as a string. */
  readonly statusCode: string;
  readonly contentType: string;
  readonly rawBody: string;
  body: Record<string, unknown> | null;
  isSuccess(): boolean;
}

type Callback = (response: V20Response) => void;
type EntityName = 'account' | 'order' | 'trade' | 'position' | 'transaction' | 'pricing' | 'instrument';
interface V20Context {
  setToken(token: string): void;
  http: { request(options: RequestOptions, callback: (res: IncomingMessage) => void): ClientRequest };
  readonly [entity: string]: unknown;
}

const { Context } = require('@oanda/v20/context') as {
  Context: new (hostname: string, port: number, ssl: boolean, application: string) => V20Context;
};
const transactionModule = require('@oanda/v20/transaction') as Record<string, new (...args: unknown[]) => unknown>;
const orderModule = require('@oanda/v20/order') as Record<string, new (...args: unknown[]) => unknown>;
const accountModule = require('@oanda/v20/account') as Record<string, new (...args: unknown[]) => unknown>;
const tradeModule = require('@oanda/v20/trade') as Record<string, new (...args: unknown[]) => unknown>;
const positionModule = require('@oanda/v20/position') as Record<string, new (...args: unknown[]) => unknown>;
const pricingModule = require('@oanda/v20/pricing') as Record<string, new (...args: unknown[]) => unknown>;
const instrumentModule = require('@oanda/v20/instrument') as Record<string, new (...args: unknown[]) => unknown>;

let server: ServeProcess;
let dir = '';
let ctx: V20Context;
let port = 0;
/** Every request the client made, so open streams can be torn down at the end. */
const requests: ClientRequest[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'v20sim-official-client-'));
  server = await startServeWithConfig(dir, {
    accounts: [
      { id: ACCOUNT, currency: 'USD', balance: '100000', alias: 'contract' },
      { id: HEDGED, currency: 'USD', balance: '100000', hedging: true },
      { id: OTHER, currency: 'EUR', balance: '50000' },
    ],
    tokens: [TOKEN, { token: OTHER_TOKEN, accounts: [OTHER] }],
    adminToken: ADMIN_TOKEN,
    clock: 'manual',
    start: formatRfc3339(T0),
    heartbeatMs: 100,
    dataDir: path.join(dir, 'state'),
  });
  port = Number(new URL(server.url).port);
  const ticks = START_QUOTES.map((q, i) => ({ ...q, time: formatRfc3339(T0 + i + 1), bid: String(q.bid), ask: String(q.ask) }));
  const pushed = await fetch(`${server.url}/sim/ticks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ticks }),
  });
  expect(pushed.status, await pushed.text()).toBe(200);
  ctx = new Context('127.0.0.1', port, false, 'v20sim-contract');
  ctx.setToken(TOKEN);
  // The client calls this.http.request(options, cb) and attaches no error handlers: track the
  // requests (to abort streams) and swallow the socket errors an abort causes.
  ctx.http = {
    request(options, callback) {
      const req = http.request(options, (res) => {
        res.on('error', () => undefined);
        callback(res);
      });
      req.on('error', () => undefined);
      requests.push(req);
      return req;
    },
  };
});

afterAll(() => {
  for (const req of requests) req.destroy();
  killAll();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** One client call as a promise: `v20('order', 'create', accountID, {order})`. */
function v20(entity: EntityName, method: string, ...args: unknown[]): Promise<V20Response> {
  return new Promise((resolve, reject) => {
    const spec = ctx[entity] as Record<string, unknown>;
    const fn = spec[method];
    if (typeof fn !== 'function') {
      reject(new Error(`the client has no ${entity}.${method}`));
      return;
    }
    const timer = setTimeout(() => reject(new Error(`${entity}.${method} got no answer`)), 5000);
    try {
      (fn as (...a: unknown[]) => void).call(spec, ...args, (response: V20Response) => {
        clearTimeout(timer);
        resolve(response);
      });
    } catch (e) {
      clearTimeout(timer);
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}

function ok(response: V20Response, status = '200'): Record<string, unknown> {
  expect(response.statusCode, `${response.method} ${response.path}: ${response.rawBody.slice(0, 1000)}`).toBe(status);
  expect(response.contentType).toMatch(/^application\/json/);
  expect(response.body).not.toBeNull();
  return response.body as Record<string, unknown>;
}

function instanceOf(value: unknown, module: Record<string, new (...args: unknown[]) => unknown>, name: string): void {
  const cls = module[name];
  if (cls === undefined) throw new Error(`no class ${name}`);
  expect(value, `${name}: ${JSON.stringify(value)?.slice(0, 300)}`).toBeInstanceOf(cls);
}

let seq = 0;
/** A client ID no other test uses. */
const unique = (prefix: string): string => `${prefix}-${(seq += 1)}`;

/**
 * A long EUR_USD trade of 1000 units (with a take profit unless asked) under a client ID of its
 * own: each test that reads or changes a trade makes its own. The account nets, and every EUR_USD
 * order of this file that fills buys, so each fill opens a trade whichever tests ran before.
 */
async function openTrade(takeProfit = true): Promise<{ id: string; clientID: string }> {
  const clientID = unique('client-trade');
  const body = ok(
    await v20('order', 'market', ACCOUNT, {
      instrument: 'EUR_USD',
      units: '1000',
      tradeClientExtensions: { id: clientID },
      ...(takeProfit ? { takeProfitOnFill: { price: '1.20000' } } : {}),
    }),
    '201',
  );
  return { id: field<string>(body, 'orderFillTransaction', 'tradeOpened', 'tradeID'), clientID };
}

/** A EUR_USD LIMIT resting below the market under a client ID of its own (tag strategy-a). */
async function restingLimit(): Promise<{ id: string; clientID: string }> {
  const clientID = unique('client-limit');
  const body = ok(
    await v20('order', 'limit', ACCOUNT, {
      instrument: 'EUR_USD',
      units: '100',
      price: '1.05000',
      clientExtensions: { id: clientID, tag: 'strategy-a' },
    }),
    '201',
  );
  return { id: field<string>(body, 'orderCreateTransaction', 'id'), clientID };
}

/** The client's class for each Order type (they do not share a base class). */
const ORDER_CLASSES: Record<string, string> = {
  MARKET: 'MarketOrder',
  LIMIT: 'LimitOrder',
  STOP: 'StopOrder',
  MARKET_IF_TOUCHED: 'MarketIfTouchedOrder',
  TAKE_PROFIT: 'TakeProfitOrder',
  STOP_LOSS: 'StopLossOrder',
  TRAILING_STOP_LOSS: 'TrailingStopLossOrder',
};

describe('accounts through the official client', () => {
  it('account.list', async () => {
    const body = ok(await v20('account', 'list'));
    const accounts = field<unknown[]>(body, 'accounts');
    for (const a of accounts) instanceOf(a, accountModule, 'AccountProperties');
    expect(accounts.map((a) => field(a, 'id'))).toEqual([ACCOUNT, HEDGED, OTHER]);
  });

  it('account.get and account.summary', async () => {
    // The EUR account: no test trades it, so its figures are the opening ones whatever ran before.
    const full = ok(await v20('account', 'get', OTHER));
    instanceOf(full['account'], accountModule, 'Account');
    expect(field(full, 'account', 'balance')).toBe('50000.0000');
    expect(field(full, 'account', 'hedgingEnabled')).toBe(false);
    expect(full['lastTransactionID']).toMatch(/^\d+$/);
    const summary = ok(await v20('account', 'summary', OTHER));
    instanceOf(summary['account'], accountModule, 'AccountSummary');
    expect(field(summary, 'account', 'NAV')).toBe('50000.0000');
  });

  it('account.instruments', async () => {
    const body = ok(await v20('account', 'instruments', ACCOUNT, { instruments: 'EUR_USD,USD_JPY' }));
    const instruments = field<unknown[]>(body, 'instruments');
    expect(instruments.map((i) => field(i, 'name'))).toEqual(['EUR_USD', 'USD_JPY']);
    expect(field(instruments[1], 'pipLocation')).toBe(-2);
  });

  it('account.configure', async () => {
    const body = ok(await v20('account', 'configure', ACCOUNT, { alias: 'via official client' }));
    instanceOf(body['clientConfigureTransaction'], transactionModule, 'ClientConfigureTransaction');
    expect(field(body, 'clientConfigureTransaction', 'alias')).toBe('via official client');
    const reject = await v20('account', 'configure', ACCOUNT, { marginRate: '5' });
    expect(reject.statusCode).toBe('400');
    instanceOf(field(reject.body, 'clientConfigureRejectTransaction'), transactionModule, 'ClientConfigureRejectTransaction');
    expect(field(reject.body, 'errorCode')).toBe('MARGIN_RATE_INVALID');
  });

  it('account.changes', async () => {
    ok(await v20('account', 'configure', ACCOUNT, { alias: 'polled' }));
    const before = ok(await v20('account', 'changes', ACCOUNT, { sinceTransactionID: '1' }));
    instanceOf(before['changes'], accountModule, 'AccountChanges');
    instanceOf(before['state'], accountModule, 'AccountChangesState');
    const types = field<unknown[]>(before, 'changes', 'transactions').map((t) => field(t, 'type'));
    expect(types).toContain('CLIENT_CONFIGURE');
  });
});

describe('orders through the official client', () => {
  it('order.market fills and opens a trade', async () => {
    const body = ok(
      await v20('order', 'market', ACCOUNT, {
        instrument: 'EUR_USD',
        units: '1000',
        tradeClientExtensions: { id: unique('client-trade') },
      }),
      '201',
    );
    instanceOf(body['orderCreateTransaction'], transactionModule, 'MarketOrderTransaction');
    instanceOf(body['orderFillTransaction'], transactionModule, 'OrderFillTransaction');
    instanceOf(field(body, 'orderFillTransaction', 'tradeOpened'), transactionModule, 'TradeOpen');
    expect(field(body, 'orderFillTransaction', 'price')).toBe('1.10020');
  });

  it('order.create of every pending type', async () => {
    await createEveryPendingType();
  });

  /** One pending order of each type, made through the client's own calls, each checked as it is made. */
  async function createEveryPendingType(): Promise<void> {
    const trade = await openTrade(false);
    const limit = ok(
      await v20('order', 'limit', ACCOUNT, {
        instrument: 'EUR_USD',
        units: '100',
        price: '1.05000',
        clientExtensions: { id: unique('client-limit'), tag: 'strategy-a' },
      }),
      '201',
    );
    instanceOf(limit['orderCreateTransaction'], transactionModule, 'LimitOrderTransaction');
    const stop = ok(await v20('order', 'stop', ACCOUNT, { instrument: 'EUR_USD', units: '-100', price: '1.05000' }), '201');
    instanceOf(stop['orderCreateTransaction'], transactionModule, 'StopOrderTransaction');
    const mit = ok(await v20('order', 'marketIfTouched', ACCOUNT, { instrument: 'USD_JPY', units: '100', price: '149.000' }), '201');
    instanceOf(mit['orderCreateTransaction'], transactionModule, 'MarketIfTouchedOrderTransaction');
    const tp = ok(await v20('order', 'takeProfit', ACCOUNT, { tradeID: trade.id, price: '1.20000' }), '201');
    instanceOf(tp['orderCreateTransaction'], transactionModule, 'TakeProfitOrderTransaction');
    const sl = ok(await v20('order', 'stopLoss', ACCOUNT, { tradeID: trade.id, price: '1.00000' }), '201');
    instanceOf(sl['orderCreateTransaction'], transactionModule, 'StopLossOrderTransaction');
    // order.trailingStopLoss(...) of the client builds a StopLossOrder (a client bug), so the
    // trailing stop goes through order.create with the client's TrailingStopLossOrder class.
    const TrailingStopLossOrder = field<new (spec: unknown) => unknown>(ctx['order'], 'TrailingStopLossOrder');
    const tsl = ok(
      await v20('order', 'create', ACCOUNT, { order: new TrailingStopLossOrder({ tradeID: trade.id, distance: '0.01000' }) }),
      '201',
    );
    instanceOf(tsl['orderCreateTransaction'], transactionModule, 'TrailingStopLossOrderTransaction');
    // The generic create with a plain object body.
    const plain = ok(
      await v20('order', 'create', ACCOUNT, {
        order: { type: 'LIMIT', instrument: 'GBP_USD', units: '10', price: '1.20000', timeInForce: 'GTC' },
      }),
      '201',
    );
    expect(field(plain, 'orderCreateTransaction', 'type')).toBe('LIMIT_ORDER');
  }

  it('order.create business reject arrives as orderRejectTransaction with errorCode', async () => {
    const res = await v20('order', 'market', ACCOUNT, { instrument: 'EUR_USD', units: '0' });
    expect(res.statusCode).toBe('400');
    instanceOf(field(res.body, 'orderRejectTransaction'), transactionModule, 'MarketOrderRejectTransaction');
    expect(field(res.body, 'errorCode')).toBe('UNITS_INVALID');
    expect(field(res.body, 'errorMessage')).toBeTypeOf('string');
  });

  it('order.list, order.listPending', async () => {
    await createEveryPendingType();
    const all = ok(await v20('order', 'list', ACCOUNT, { state: 'ALL', count: 100 }));
    const orders = field<unknown[]>(all, 'orders');
    for (const o of orders) instanceOf(o, orderModule, ORDER_CLASSES[field<string>(o, 'type')] ?? 'Order');
    expect(orders.map((o) => field(o, 'state'))).toContain('FILLED');
    const pending = ok(await v20('order', 'listPending', ACCOUNT));
    const types = field<unknown[]>(pending, 'orders').map((o) => field(o, 'type'));
    expect(new Set(types)).toEqual(new Set(['LIMIT', 'STOP', 'MARKET_IF_TOUCHED', 'TAKE_PROFIT', 'STOP_LOSS', 'TRAILING_STOP_LOSS']));
    instanceOf(
      field<unknown[]>(pending, 'orders').find((o) => field(o, 'type') === 'LIMIT'),
      orderModule,
      'LimitOrder',
    );
  });

  it('order.get by ID and by @clientID', async () => {
    const limit = await restingLimit();
    const byId = ok(await v20('order', 'get', ACCOUNT, limit.id));
    instanceOf(byId['order'], orderModule, 'LimitOrder');
    const byClient = ok(await v20('order', 'get', ACCOUNT, `@${limit.clientID}`));
    expect(field(byClient, 'order', 'id')).toBe(limit.id);
    expect(field(byClient, 'order', 'clientExtensions', 'tag')).toBe('strategy-a');
    const missing = await v20('order', 'get', ACCOUNT, '999999');
    expect(missing.statusCode).toBe('404');
  });

  it('order.replace (limitReplace)', async () => {
    const limit = await restingLimit();
    const body = ok(
      await v20('order', 'limitReplace', ACCOUNT, `@${limit.clientID}`, {
        instrument: 'EUR_USD',
        units: '150',
        price: '1.04000',
        clientExtensions: { id: unique('client-limit') },
      }),
      '201',
    );
    instanceOf(body['orderCancelTransaction'], transactionModule, 'OrderCancelTransaction');
    instanceOf(body['orderCreateTransaction'], transactionModule, 'LimitOrderTransaction');
    expect(field(body, 'orderCreateTransaction', 'replacesOrderID')).toBe(limit.id);
  });

  it('order.setClientExtensions', async () => {
    const limit = await restingLimit();
    const body = ok(await v20('order', 'setClientExtensions', ACCOUNT, limit.id, { clientExtensions: { comment: 'changed once' } }));
    instanceOf(body['orderClientExtensionsModifyTransaction'], transactionModule, 'OrderClientExtensionsModifyTransaction');
  });

  it('order.cancel (the client sends Content-Type: application/json and no body)', async () => {
    const stop = ok(await v20('order', 'stop', ACCOUNT, { instrument: 'EUR_USD', units: '-100', price: '1.05000' }), '201');
    const stopID = field<string>(stop, 'orderCreateTransaction', 'id');
    const body = ok(await v20('order', 'cancel', ACCOUNT, stopID));
    instanceOf(body['orderCancelTransaction'], transactionModule, 'OrderCancelTransaction');
    expect(field(body, 'orderCancelTransaction', 'orderID')).toBe(stopID);
    const again = await v20('order', 'cancel', ACCOUNT, stopID);
    expect(again.statusCode).toBe('404');
    instanceOf(field(again.body, 'orderCancelRejectTransaction'), transactionModule, 'OrderCancelRejectTransaction');
  });
});

describe('trades through the official client', () => {
  it('trade.list, trade.listOpen, trade.get', async () => {
    const trade = await openTrade();
    const list = ok(await v20('trade', 'list', ACCOUNT, { state: 'ALL' }));
    for (const t of field<unknown[]>(list, 'trades')) instanceOf(t, tradeModule, 'Trade');
    const open = ok(await v20('trade', 'listOpen', ACCOUNT));
    const openIDs = field<unknown[]>(open, 'trades').map((t) => field(t, 'id'));
    // Newest first: the one just opened leads.
    expect(openIDs[0]).toBe(trade.id);
    const one = ok(await v20('trade', 'get', ACCOUNT, `@${trade.clientID}`));
    instanceOf(one['trade'], tradeModule, 'Trade');
    expect(field(one, 'trade', 'currentUnits')).toBe('1000');
    instanceOf(field(one, 'trade', 'takeProfitOrder'), orderModule, 'TakeProfitOrder');
  });

  it('trade.setClientExtensions', async () => {
    const trade = await openTrade();
    const body = ok(await v20('trade', 'setClientExtensions', ACCOUNT, trade.id, { clientExtensions: { comment: 'held' } }));
    instanceOf(body['tradeClientExtensionsModifyTransaction'], transactionModule, 'TradeClientExtensionsModifyTransaction');
  });

  it('trade.setDependentOrders replaces take profit and stop loss', async () => {
    const trade = await openTrade();
    const body = ok(
      await v20('trade', 'setDependentOrders', ACCOUNT, trade.id, { takeProfit: { price: '1.25000' }, stopLoss: { price: '1.01000' } }),
    );
    instanceOf(body['takeProfitOrderTransaction'], transactionModule, 'TakeProfitOrderTransaction');
    instanceOf(body['takeProfitOrderCancelTransaction'], transactionModule, 'OrderCancelTransaction');
    instanceOf(body['stopLossOrderTransaction'], transactionModule, 'StopLossOrderTransaction');
  });

  it('trade.close partly, then fully', async () => {
    const trade = await openTrade();
    const partial = ok(await v20('trade', 'close', ACCOUNT, trade.id, { units: '400' }));
    instanceOf(partial['orderCreateTransaction'], transactionModule, 'MarketOrderTransaction');
    instanceOf(partial['orderFillTransaction'], transactionModule, 'OrderFillTransaction');
    instanceOf(field(partial, 'orderFillTransaction', 'tradeReduced'), transactionModule, 'TradeReduce');
    const rest = ok(await v20('trade', 'close', ACCOUNT, `@${trade.clientID}`, { units: 'ALL' }));
    expect(field(rest, 'orderFillTransaction', 'tradesClosed', 0, 'tradeID')).toBe(trade.id);
    const again = await v20('trade', 'close', ACCOUNT, trade.id, { units: 'ALL' });
    expect(['400', '404']).toContain(again.statusCode);
  });
});

describe('positions through the official client', () => {
  it('position.list, listOpen, get, close', async () => {
    ok(await v20('order', 'market', HEDGED, { instrument: 'EUR_USD', units: '300' }), '201');
    ok(await v20('order', 'market', HEDGED, { instrument: 'EUR_USD', units: '-200' }), '201');
    const list = ok(await v20('position', 'list', HEDGED));
    for (const p of field<unknown[]>(list, 'positions')) instanceOf(p, positionModule, 'Position');
    const open = ok(await v20('position', 'listOpen', HEDGED));
    expect(field<unknown[]>(open, 'positions')).toHaveLength(1);
    const one = ok(await v20('position', 'get', HEDGED, 'EUR_USD'));
    instanceOf(one['position'], positionModule, 'Position');
    instanceOf(field(one, 'position', 'long'), positionModule, 'PositionSide');
    expect(field(one, 'position', 'long', 'units')).toBe('300');
    expect(field(one, 'position', 'short', 'units')).toBe('-200');
    const closed = ok(await v20('position', 'close', HEDGED, 'EUR_USD', { longUnits: 'ALL', shortUnits: '100' }));
    instanceOf(closed['longOrderFillTransaction'], transactionModule, 'OrderFillTransaction');
    instanceOf(closed['shortOrderFillTransaction'], transactionModule, 'OrderFillTransaction');
    const after = ok(await v20('position', 'get', HEDGED, 'EUR_USD'));
    expect(field(after, 'position', 'long', 'units')).toBe('0');
    expect(field(after, 'position', 'short', 'units')).toBe('-100');
  });
});

describe('transactions through the official client', () => {
  it('transaction.list returns page URLs; range and since return Transaction objects', async () => {
    await openTrade();
    const list = ok(await v20('transaction', 'list', ACCOUNT, { pageSize: 5 }));
    const last = Number(list['lastTransactionID']);
    expect(list['count']).toBe(last);
    // Absolute URLs on the server the client talks to, so it can follow them.
    expect(field<string[]>(list, 'pages')[0]).toBe(`http://127.0.0.1:${port}/v3/accounts/${ACCOUNT}/transactions/idrange?from=1&to=5`);
    const range = ok(await v20('transaction', 'range', ACCOUNT, { from: '1', to: String(last) }));
    const txs = field<unknown[]>(range, 'transactions');
    expect(txs).toHaveLength(last);
    instanceOf(txs[0], transactionModule, 'CreateTransaction');
    instanceOf(txs[1], transactionModule, 'TransferFundsTransaction');
    const since = ok(await v20('transaction', 'since', ACCOUNT, { id: String(last - 2) }));
    expect(field<unknown[]>(since, 'transactions').map((t) => field(t, 'id'))).toEqual([String(last - 1), String(last)]);
    const filtered = ok(await v20('transaction', 'range', ACCOUNT, { from: '1', to: String(last), type: 'ORDER_FILL' }));
    const fills = field<unknown[]>(filtered, 'transactions');
    expect(fills.length).toBeGreaterThan(0);
    for (const f of fills) instanceOf(f, transactionModule, 'OrderFillTransaction');
  });

  it('transaction.get', async () => {
    const body = ok(await v20('transaction', 'get', ACCOUNT, '1'));
    instanceOf(body['transaction'], transactionModule, 'CreateTransaction');
    const missing = await v20('transaction', 'get', ACCOUNT, '999999');
    expect(missing.statusCode).toBe('404');
  });

  it('account.changes since an earlier poll reports the orders and trades', async () => {
    const polled = String(ok(await v20('account', 'summary', ACCOUNT))['lastTransactionID']);
    const trade = await openTrade();
    ok(await v20('trade', 'close', ACCOUNT, trade.id, { units: 'ALL' }));
    await restingLimit();
    const body = ok(await v20('account', 'changes', ACCOUNT, { sinceTransactionID: polled }));
    expect(field<unknown[]>(body, 'changes', 'tradesOpened').length).toBeGreaterThan(0);
    expect(field<unknown[]>(body, 'changes', 'tradesClosed').length).toBeGreaterThan(0);
    expect(field<unknown[]>(body, 'changes', 'ordersCreated').length).toBeGreaterThan(0);
  });
});

describe('pricing through the official client', () => {
  it('pricing.get', async () => {
    const body = ok(await v20('pricing', 'get', ACCOUNT, { instruments: ['EUR_USD', 'USD_JPY'], includeHomeConversions: true }));
    const prices = field<unknown[]>(body, 'prices');
    for (const p of prices) instanceOf(p, pricingModule, 'ClientPrice');
    expect(prices.map((p) => field(p, 'instrument'))).toEqual(['EUR_USD', 'USD_JPY']);
    expect(field(prices[0], 'bids', 0, 'price')).toBe('1.10000');
    expect(field<unknown[]>(body, 'homeConversions').length).toBeGreaterThan(0);
  });

  it('instrument.candles', async () => {
    // (pricing.candles of the client requests /v3/accounts/{accountID}/... without ever filling
    // in the account: a client bug, not exercised.)
    const body = ok(await v20('instrument', 'candles', 'EUR_USD', { granularity: 'S5', count: 3 }));
    expect(body['instrument']).toBe('EUR_USD');
    expect(body['granularity']).toBe('S5');
    expect(field<unknown[]>(body, 'candles').length).toBeGreaterThan(0);
    expect(field(body, 'candles', 0, 'mid', 'o')).toMatch(/^\d+\.\d{5}$/);
  });

  it('pricing.stream delivers PricingHeartbeat objects', async () => {
    // The client's pricing stream parser does `new Price(msg)` for PRICE lines, and pricing.js
    // defines no Price (ReferenceError thrown from the socket's data handler): with this client
    // only heartbeats can be read from a pricing stream. So no quote is pushed while it is open.
    const seen: unknown[] = [];
    const pricingSpec = ctx['pricing'] as { stream: (id: string, q: unknown, chunk: (m: unknown) => void, done: Callback) => void };
    pricingSpec.stream(
      ACCOUNT,
      { instruments: 'GBP_USD', snapshot: false },
      (m) => seen.push(m),
      () => undefined,
    );
    const streamReq = requests.at(-1);
    await waitFor(() => seen.length >= 2, 'two pricing heartbeats');
    for (const hb of seen) instanceOf(hb, pricingModule, 'PricingHeartbeat');
    expect(field(seen[0], 'time')).toMatch(/^\d{4}-\d\d-\d\dT/);
    streamReq?.destroy();
  });
});

describe('the transaction stream through the official client', () => {
  it('transaction.stream receives the transactions of a trade made while streaming, and heartbeats', async () => {
    const seen: unknown[] = [];
    const txSpec = ctx['transaction'] as { stream: (id: string, chunk: (m: unknown) => void, done: Callback) => void };
    txSpec.stream(
      ACCOUNT,
      (m) => seen.push(m),
      () => undefined,
    );
    const streamReq = requests.at(-1);
    await waitFor(() => seen.length > 0, 'a first heartbeat');
    instanceOf(seen[0], transactionModule, 'TransactionHeartbeat');
    const placed = ok(
      await v20('order', 'market', ACCOUNT, { instrument: 'USD_JPY', units: '-500', stopLossOnFill: { price: '155.000' } }),
      '201',
    );
    const fillID = field<string>(placed, 'orderFillTransaction', 'id');
    await waitFor(() => seen.some((m) => field(m, 'type') === 'STOP_LOSS_ORDER'), 'the stop loss order transaction');
    const types = seen.map((m) => field(m, 'type')).filter((t) => t !== 'HEARTBEAT');
    expect(types).toEqual(['MARKET_ORDER', 'ORDER_FILL', 'STOP_LOSS_ORDER']);
    const fill = seen.find((m) => field(m, 'type') === 'ORDER_FILL');
    instanceOf(fill, transactionModule, 'OrderFillTransaction');
    expect(field(fill, 'id')).toBe(fillID);
    instanceOf(
      seen.find((m) => field(m, 'type') === 'MARKET_ORDER'),
      transactionModule,
      'MarketOrderTransaction',
    );
    // Closing the trade through the client shows up on the stream too.
    const tradeID = field<string>(placed, 'orderFillTransaction', 'tradeOpened', 'tradeID');
    const closed = ok(await v20('trade', 'close', ACCOUNT, tradeID, { units: 'ALL' }));
    await waitFor(() => seen.filter((m) => field(m, 'type') === 'ORDER_FILL').length === 2, 'the closing fill');
    await waitFor(() => {
      const last = seen.at(-1);
      return field(last, 'type') === 'HEARTBEAT' && field(last, 'lastTransactionID') === field(closed, 'lastTransactionID');
    }, 'a heartbeat with the new lastTransactionID');
    streamReq?.destroy();
  });
});

describe('order and position books through the official client', () => {
  it('instrument.orderBook and instrument.positionBook, once the clock crossed a 20-minute boundary', async () => {
    // Last in the file: it moves the simulated clock 20 minutes on.
    const advanced = await fetch(`${server.url}/sim/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 20 * 60 }),
    });
    expect(advanced.status).toBe(200);
    const orderBook = ok(await v20('instrument', 'orderBook', 'EUR_USD', {}));
    instanceOf(orderBook['orderBook'], instrumentModule, 'OrderBook');
    expect(field(orderBook, 'orderBook', 'bucketWidth')).toBe('0.00050');
    const positionBook = ok(await v20('instrument', 'positionBook', 'EUR_USD', { time: '2024-01-02T12:20:00Z' }));
    instanceOf(positionBook['positionBook'], instrumentModule, 'PositionBook');
    expect(field(positionBook, 'positionBook', 'time')).toBe('2024-01-02T12:20:00Z');
  });
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
