import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/api/app.js';
import { SIM_LIMITS } from '../../src/domain/limits.js';
import { formatRfc3339 } from '../../src/domain/time.js';
import type { Engine } from '../../src/engine/engine.js';
import { MemoryJournal } from '../../src/journal/journal.js';
import { startTestApi } from '../support/api/harness.js';
import { T0 } from '../support/constants.js';
import { balanceOf } from '../../src/account/state.js';

const A = '101-004-1000000-001';
const B = '101-004-1000000-002';
const ADMIN = { authorization: 'Bearer admin-secret' };
const USER = { authorization: 'Bearer user-token' };

interface Setup {
  engine: Engine;
  journal: MemoryJournal;
  app: App;
}

const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function setup(options: { admin?: boolean; journal?: MemoryJournal; start?: number } = {}): Promise<Setup> {
  const journal = options.journal ?? new MemoryJournal();
  const { app, engine } = await startTestApi({
    accounts: [{ id: A, currency: 'USD', balance: '10000' }],
    start: options.start ?? T0,
    journal,
    tokens: [{ token: 'user-token', accounts: '*' }],
    api: options.admin === false ? {} : { adminToken: 'admin-secret' },
  });
  apps.push(app);
  return { engine, journal, app };
}

async function post(
  app: App,
  url: string,
  payload: unknown,
  headers: Record<string, string> = ADMIN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  return { status: res.statusCode, body: res.body === '' ? {} : (JSON.parse(res.body) as Record<string, unknown>) };
}

async function get(
  app: App,
  url: string,
  headers: Record<string, string> = ADMIN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

const eurusd = (bid: string, ask: string, time?: string | number): Record<string, unknown> => ({
  instrument: 'EUR_USD',
  bid,
  ask,
  ...(time === undefined ? {} : { time }),
});

describe('control API: authorization', () => {
  it('answers 401 without the admin token, also for an API token', async () => {
    const { app } = await setup();
    for (const headers of [{}, USER, { authorization: 'Bearer wrong' }, { authorization: 'admin-secret' }]) {
      const res = await app.inject({ method: 'GET', url: '/sim/clock', headers });
      expect(res.statusCode).toBe(401);
      expect(JSON.parse(res.body)).toEqual({ errorMessage: 'Insufficient authorization to perform request.' });
    }
    const pushed = await post(app, '/sim/ticks', { ticks: [eurusd('1.1', '1.1002')] }, USER);
    expect(pushed.status).toBe(401);
  });

  it('is not mounted without an admin token', async () => {
    const { app } = await setup({ admin: false });
    expect((await app.inject({ method: 'GET', url: '/sim/clock', headers: ADMIN })).statusCode).toBe(404);
  });
});

describe('control API: ticks and clock', () => {
  it('pushes ticks with RFC3339, UNIX or no time, prices as strings or numbers', async () => {
    const { app, engine } = await setup();
    const t1 = formatRfc3339(T0 + 1_000_000);
    const res = await post(app, '/sim/ticks', {
      ticks: [
        eurusd('1.10000', '1.10020'),
        eurusd('1.10010', '1.10030', t1),
        { instrument: 'USD_JPY', bid: 150.1, ask: 150.12, time: String((T0 + 2_000_000) / 1e6) },
        { instrument: 'USD_JPY', bid: 150.1, ask: 150.12, time: (T0 + 2_500_000) / 1e6, closeoutBid: 150.09, closeoutAsk: 150.13 },
      ],
    });
    expect(res).toEqual({ status: 200, body: { pushed: 4, time: formatRfc3339(T0 + 2_500_000) } });
    expect(engine.now).toBe(T0 + 2_500_000);
    const prices = await get(app, `/v3/accounts/${A}/pricing?instruments=EUR_USD,USD_JPY`, USER);
    expect(prices.status).toBe(200);
    const list = prices.body['prices'] as { instrument: string; time: string; closeoutBid: string }[];
    expect(list.map((p) => [p.instrument, p.time])).toEqual([
      ['EUR_USD', t1],
      ['USD_JPY', formatRfc3339(T0 + 2_500_000)],
    ]);
    expect(list[1]?.closeoutBid).toBe('150.090');
  });

  it('refuses a push with any bad tick and applies none of it', async () => {
    const { app, engine, journal } = await setup();
    const later = formatRfc3339(T0 + 5_000_000);
    const earlier = formatRfc3339(T0 + 4_000_000);
    const cases: [unknown, string][] = [
      [{ ticks: [eurusd('1.1', '1.1002', later), eurusd('1.1', '1.1002', earlier)] }, "Invalid value specified for 'ticks[1].time'"],
      [{ ticks: [eurusd('1.1', '1.1002', formatRfc3339(T0 - 1))] }, "Invalid value specified for 'ticks[0].time'"],
      [
        { ticks: [eurusd('1.1', '1.1002', later), { instrument: 'XXX_YYY', bid: '1', ask: '1' }] },
        "Invalid value specified for 'ticks[1].instrument'",
      ],
      [{ ticks: [eurusd('1.1003', '1.1002')] }, "Invalid value specified for 'ticks[0].ask'"],
      [{ ticks: [eurusd('-1', '1.1002')] }, "Invalid value specified for 'ticks[0].bid'"],
      [{ ticks: [eurusd('1.1', '1.1002', 'yesterday')] }, "Invalid value specified for 'ticks[0].time'"],
      [{ ticks: [eurusd('1.1', '1.1002', 1e11)] }, "Invalid value specified for 'ticks[0].time'"],
      [{ ticks: [eurusd('1.1', '1.1002', '9999-01-01T00:00:00Z')] }, "Invalid value specified for 'ticks[0].time'"],
      [{ ticks: [{ ...eurusd('1.1', '1.1002'), volume: 3 }] }, "Invalid value specified for 'ticks[0].volume'"],
      [{ ticks: 'EUR_USD' }, "Invalid value specified for 'ticks'"],
      [{}, "Invalid value specified for 'ticks'"],
    ];
    for (const [payload, message] of cases) {
      const res = await post(app, '/sim/ticks', payload);
      expect(res.status).toBe(400);
      expect(String(res.body['errorMessage'])).toContain(message);
    }
    expect(engine.now).toBe(T0);
    expect(engine.account(A)!.state.prices.get('EUR_USD')?.known ?? false).toBe(false);
    expect(journal.lineCount(A)).toBe(2);
  });

  it('bounds the ticks per push', async () => {
    const { app, engine } = await setup();
    const many = (n: number): unknown => ({ ticks: Array.from({ length: n }, (_, i) => eurusd('1.1', '1.1002', (T0 + i + 1) / 1e6)) });
    const over = await post(app, '/sim/ticks', many(SIM_LIMITS.ticksPerPush + 1));
    expect(over.status).toBe(400);
    expect(over.body['errorMessage']).toBe(
      `Invalid value specified for 'ticks': at most ${SIM_LIMITS.ticksPerPush} ticks per push, got ${SIM_LIMITS.ticksPerPush + 1}`,
    );
    expect(engine.now).toBe(T0);
    const full = await post(app, '/sim/ticks', many(SIM_LIMITS.ticksPerPush));
    expect(full.status).toBe(200);
    expect(full.body['pushed']).toBe(SIM_LIMITS.ticksPerPush);
    expect(engine.now).toBe(T0 + SIM_LIMITS.ticksPerPush);
  });

  it('reads and advances the clock; advancing expires GTD orders', async () => {
    const { app, engine, journal } = await setup();
    expect(await get(app, '/sim/clock')).toEqual({ status: 200, body: { time: formatRfc3339(T0) } });
    const unix = await get(app, '/sim/clock', { ...ADMIN, 'accept-datetime-format': 'UNIX' });
    expect(unix.body).toEqual({ time: `${T0 / 1e6}.000000000` });
    await post(app, '/sim/ticks', { ticks: [eurusd('1.1', '1.1002')] });
    const gtd = formatRfc3339(T0 + 60_000_000);
    const order = await post(
      app,
      `/v3/accounts/${A}/orders`,
      { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.0', timeInForce: 'GTD', gtdTime: gtd } },
      USER,
    );
    expect(order.status).toBe(201);

    expect(await post(app, '/sim/clock/advance', { seconds: 30 })).toEqual({ status: 200, body: { time: formatRfc3339(T0 + 30_000_000) } });
    expect(engine.account(A)!.state.pendingCount).toBe(1);
    expect(await post(app, '/sim/clock/advance', { to: formatRfc3339(T0 + 90_000_000) })).toEqual({
      status: 200,
      body: { time: formatRfc3339(T0 + 90_000_000) },
    });
    expect(engine.account(A)!.state.pendingCount).toBe(0);
    const cancel = journal.read(A).at(-1) as unknown as Record<string, unknown>;
    expect(cancel).toMatchObject({ type: 'ORDER_CANCEL', reason: 'TIME_IN_FORCE_EXPIRED', time: gtd });

    for (const [payload, field] of [
      [{ to: formatRfc3339(T0) }, 'to'],
      [{ seconds: -1 }, 'seconds'],
      [{ seconds: '5' }, 'seconds'],
      [{}, 'to'],
      [{ to: formatRfc3339(T0 + 100_000_000), seconds: 1 }, 'to'],
      [{ by: 3 }, 'by'],
      [[1], 'body'],
    ] as const) {
      const res = await post(app, '/sim/clock/advance', payload);
      expect(res.status).toBe(400);
      expect(String(res.body['errorMessage'])).toContain(`Invalid value specified for '${field}'`);
    }
    expect(engine.now).toBe(T0 + 90_000_000);
  });
});

describe('control API: accounts', () => {
  it('creates an account at the simulated time and answers 409 when it exists', async () => {
    const { app, engine, journal } = await setup();
    const created = await post(app, '/sim/accounts', {
      id: B,
      currency: 'EUR',
      alias: 'Second',
      balance: '2500.5',
      hedgingEnabled: true,
      marginRate: '0.05',
    });
    expect(created.status).toBe(201);
    expect(created.body['account']).toMatchObject({
      id: B,
      currency: 'EUR',
      alias: 'Second',
      balance: '2500.5000',
      hedgingEnabled: true,
      marginRate: '0.05',
      createdTime: formatRfc3339(T0),
    });
    expect(created.body['lastTransactionID']).toBe('4');
    expect(engine.accountIds()).toEqual([A, B]);
    expect(journal.lineCount(B)).toBe(4);
    const viaV3 = await get(app, `/v3/accounts/${B}/summary`, USER);
    expect(viaV3.status).toBe(200);
    expect((await get(app, '/v3/accounts', USER)).body['accounts']).toEqual([
      { id: A, tags: [] },
      { id: B, tags: [] },
    ]);

    const again = await post(app, '/sim/accounts', { id: B, currency: 'EUR' });
    expect(again).toEqual({ status: 409, body: { errorMessage: `The Account ${B} already exists` } });
  });

  it('refuses an invalid account config naming the field, before anything is journaled', async () => {
    const { app, engine, journal } = await setup();
    const cases: [unknown, string][] = [
      [{ id: '12345', currency: 'USD' }, 'id'],
      [{ id: B, currency: 'usd' }, 'currency'],
      [{ id: B, currency: 'XYZ' }, 'currency'],
      [{ id: B, currency: 'USD', balance: '-5' }, 'balance'],
      [{ id: B, currency: 'USD', balance: '1.00001' }, 'balance'],
      [{ id: B, currency: 'USD', marginRate: '2' }, 'marginRate'],
      [{ id: B, currency: 'USD', hedgingEnabled: 'yes' }, 'hedgingEnabled'],
      [{ id: B, currency: 'USD', alias: 'x'.repeat(129) }, 'alias'],
      [{ id: B, currency: 'USD', colour: 'red' }, 'colour'],
      [[1, 2], 'body'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(app, '/sim/accounts', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(String(res.body['errorMessage'])).toContain(`Invalid value specified for '${field}'`);
    }
    expect(engine.accountIds()).toEqual([A]);
    expect(journal.accountIds()).toEqual([A]);
  });

  it('deposits and withdraws with TRANSFER_FUNDS, refusing like v20', async () => {
    const { app, journal } = await setup();
    const deposit = await post(app, `/sim/accounts/${A}/deposit`, { amount: '500.25', comment: 'top up' });
    expect(deposit.status).toBe(200);
    expect(deposit.body['transferFundsTransaction']).toMatchObject({
      type: 'TRANSFER_FUNDS',
      amount: '500.2500',
      accountBalance: '10500.2500',
      comment: 'top up',
      fundingReason: 'CLIENT_FUNDING',
    });
    expect(deposit.body['lastTransactionID']).toBe('3');
    const withdraw = await post(app, `/sim/accounts/${A}/deposit`, { amount: -500.25 });
    expect(withdraw.body['transferFundsTransaction']).toMatchObject({ amount: '-500.2500', accountBalance: '10000.0000' });
    const tooMuch = await post(app, `/sim/accounts/${A}/deposit`, { amount: '-20000' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({
      errorCode: 'INSUFFICIENT_FUNDS',
      transferFundsRejectTransaction: { type: 'TRANSFER_FUNDS_REJECT' },
    });
    expect(journal.lineCount(A)).toBe(5);
    // Found by the /sim fuzz test (fast-check seed 1637610553, path 134:3:3): an amount below the
    // account currency's precision is a business reject, and the 400 carries the reject
    // transaction it wrote, so the answer says exactly what changed.
    const tiny = await post(app, `/sim/accounts/${A}/deposit`, { amount: '0.00001' });
    expect(tiny.status).toBe(400);
    expect(tiny.body).toMatchObject({
      errorCode: 'AMOUNT_INVALID',
      transferFundsRejectTransaction: { id: '6', type: 'TRANSFER_FUNDS_REJECT' },
    });
    expect(tiny.body['lastTransactionID']).toBe('6');
    expect(journal.lineCount(A)).toBe(6);
    const huge = await post(app, `/sim/accounts/${A}/deposit`, { amount: `1${'0'.repeat(49)}` });
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ errorCode: 'AMOUNT_INVALID', transferFundsRejectTransaction: { id: '7' } });
    expect((await post(app, `/sim/accounts/${A}/summary`, {})).status).toBe(404);
    expect((await post(app, `/sim/accounts/${A}/deposit`, { amount: 'lots' })).status).toBe(400);
    expect((await post(app, `/sim/accounts/${A}/deposit`, {})).status).toBe(400);
    expect(journal.lineCount(A)).toBe(7);
    expect(await post(app, `/sim/accounts/${B}/deposit`, { amount: '1' })).toEqual({
      status: 404,
      body: { errorMessage: 'The specified Account does not exist.' },
    });
    expect((await post(app, '/sim/accounts/nope/deposit', { amount: '1' })).status).toBe(400);
  });

  it('resets by closing positions, cancelling orders and restoring the opening balance', async () => {
    const { app, engine, journal } = await setup();
    await post(app, '/sim/ticks', { ticks: [eurusd('1.10000', '1.10020')] });
    await post(
      app,
      `/v3/accounts/${A}/orders`,
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.20000' } } },
      USER,
    );
    await post(app, `/v3/accounts/${A}/orders`, { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '-100', price: '1.30000' } }, USER);
    await post(app, '/sim/ticks', { ticks: [eurusd('1.10500', '1.10520', formatRfc3339(T0 + 1_000_000))] });
    const state = engine.account(A)!.state;
    expect(state.openTradeCount).toBe(1);
    expect(state.pendingCount).toBe(2);

    const reset = await post(app, `/sim/accounts/${A}/reset`, {});
    expect(reset.status).toBe(200);
    const types = (reset.body['transactions'] as { type: string; reason?: string }[]).map(
      (t) => `${t.type}${t.reason === undefined ? '' : `:${t.reason}`}`,
    );
    expect(types).toEqual([
      'MARKET_ORDER:POSITION_CLOSEOUT',
      'ORDER_FILL:MARKET_ORDER_POSITION_CLOSEOUT',
      'ORDER_CANCEL:LINKED_TRADE_CLOSED',
      'ORDER_CANCEL:CLIENT_REQUEST',
      'TRANSFER_FUNDS',
    ]);
    expect(reset.body['account']).toMatchObject({ balance: '10000.0000', openTradeCount: 0, pendingOrderCount: 0, openPositionCount: 0 });
    expect(journal.read(A).at(-1)).toMatchObject({ type: 'TRANSFER_FUNDS', comment: 'v20sim reset', accountBalance: '10000.0000' });

    const toBalance = await post(app, `/sim/accounts/${A}/reset`, { balance: '2500' });
    expect(toBalance.body['transactions']).toHaveLength(1);
    expect(balanceOf(state).toFixed(4)).toBe('2500.0000');
    const nothing = await post(app, `/sim/accounts/${A}/reset`, { balance: '2500' });
    expect(nothing.body['transactions']).toEqual([]);
    expect((await post(app, `/sim/accounts/${A}/reset`, { balance: 'x' })).status).toBe(400);
  });

  it('refuses a reset with nothing done while a position has no price to close at', async () => {
    const first = await setup();
    await post(first.app, '/sim/ticks', { ticks: [eurusd('1.1', '1.1002')] });
    await post(first.app, `/v3/accounts/${A}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } }, USER);
    // A restart: the account comes back from its journal, without quotes.
    const journal = new MemoryJournal();
    journal.append(A, first.journal.read(A));
    const { app } = await setup({ journal, start: first.engine.now });
    const res = await post(app, `/sim/accounts/${A}/reset`, {});
    expect(res.status).toBe(409);
    expect(String(res.body['errorMessage'])).toContain('no price for EUR_USD');
    expect(journal.lineCount(A)).toBe(first.journal.lineCount(A));
  });

  it('exports the journal of an account as NDJSON', async () => {
    const { app, journal } = await setup();
    await post(app, `/sim/accounts/${A}/deposit`, { amount: '1' });
    const res = await app.inject({ method: 'GET', url: `/sim/journal/${A}`, headers: ADMIN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.body).toBe(journal.text(A));
    expect(res.body.split('\n')).toHaveLength(4);
    expect((await app.inject({ method: 'GET', url: `/sim/journal/${B}`, headers: ADMIN })).statusCode).toBe(404);
  });
});
