import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/api/app.js';
import type { ApiOptions } from '../../src/api/context.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
export type JsonBody = Record<string, any>;

export const ACCOUNT = '101-004-1234567-001';
export const OTHER = '101-004-1234567-002';
export const TOKEN = 'test-token';
export const START = Date.UTC(2024, 0, 2, 12) * 1000;

export interface Harness {
  engine: Engine;
  app: App;
  request(method: InjectOptions['method'], url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse & { json(): JsonBody }>;
  quote(instrument: string, bid: number, ask: number): void;
}

let clock = START;

/** An engine with two USD accounts, EUR/USD and USD/JPY quotes, and the API over it. */
export async function harness(options: Partial<ApiOptions> = {}): Promise<Harness> {
  clock = START;
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD' }, { id: OTHER, currency: 'EUR', hedgingEnabled: true }], start: START });
  const app = await buildApp({ engine, tokens: [{ token: TOKEN, accounts: '*' }, { token: 'only-other', accounts: [OTHER] }], ...options });
  const quote = (instrument: string, bid: number, ask: number): void => {
    clock += 1_000_000;
    engine.pushTick({ instrument, time: clock, bid, ask });
  };
  quote('EUR_USD', 1.1, 1.1002);
  quote('USD_JPY', 150, 150.02);
  return {
    engine,
    app,
    quote,
    request: async (method, url, body, headers = {}) => {
      const injected: InjectOptions = { method: method ?? 'GET', url, headers: { authorization: `Bearer ${TOKEN}`, ...headers } };
      if (body !== undefined) injected.payload = body as Record<string, unknown>;
      const response: LightMyRequestResponse = await app.inject(injected);
      return response as unknown as LightMyRequestResponse & { json(): JsonBody };
    },
  };
}
