/**
 * The trades endpoint tests' server, fresh for each test: one USD netting account, EUR/USD and
 * USD/JPY quoted a second after the start, and the API over it with token T.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { App } from '../../src/api/app.js';
import type { Engine } from '../../src/engine/engine.js';
import { startTestApi } from '../support/api/harness.js';
import { ACCOUNT, MAY_T0 as START, SECOND } from '../support/constants.js';

export const A = `/v3/accounts/${ACCOUNT}`;
export const TIME = '2024-05-06T12:00:01.000000000Z';

export type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies are read field by field

export interface Reply {
  status: number;
  body: Body;
  headers: Record<string, unknown>;
}

/** The current test's server; a test may replace `app` (over the same engine). */
export const server = {} as { app: App; engine: Engine };

/** Registers the per-test server in the calling test file. */
export function useTradesServer(): void {
  beforeEach(async () => {
    const { app, engine } = await startTestApi({
      accounts: [{ id: ACCOUNT, currency: 'USD' }],
      start: START,
      tokens: [{ token: 'T', accounts: '*' }],
      quotes: [
        { instrument: 'EUR_USD', time: START + SECOND, bid: 1.1, ask: 1.1002 },
        { instrument: 'USD_JPY', time: START + SECOND, bid: 150, ask: 150.02 },
      ],
    });
    server.app = app;
    server.engine = engine;
  });
  afterEach(async () => {
    await server.app.close();
  });
}

export async function call(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH',
  path: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await server.app.inject({
    method,
    url: `${A}${path}`,
    headers: { authorization: 'Bearer T', ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** Opens a trade with a market order; returns the trade ID. */
export async function open(units: string, instrument = 'EUR_USD', clientTradeID?: string): Promise<string> {
  const order: Body = { type: 'MARKET', instrument, units };
  if (clientTradeID !== undefined) order['tradeClientExtensions'] = { id: clientTradeID };
  const r = await call('POST', '/orders', { order });
  expect(r.status).toBe(201);
  return r.body['orderFillTransaction'].tradeOpened.tradeID as string;
}

export async function lastId(): Promise<string> {
  return (await call('GET', '/summary')).body['lastTransactionID'] as string;
}

export const ids = (body: Body): string[] => (body['trades'] as Body[]).map((t) => t['id'] as string);
