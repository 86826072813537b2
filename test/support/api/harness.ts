/**
 * A v20sim API over a fresh engine, for contract, client and fuzz tests: three accounts, two
 * tokens, quotes for a few instruments, and helpers to send requests through `app.inject`.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../../src/api/app.js';
import type { ApiOptions } from '../../../src/api/context.js';
import { createEngine, type Engine } from '../../../src/engine/engine.js';
import type { Tick } from '../../../src/domain/tick.js';

/** Netting USD account the tests trade in. */
export const ACCOUNT = '101-004-1234567-001';
/** Hedging USD account. */
export const HEDGED = '101-004-1234567-002';
/** An account the main token may see but the narrow token may not, and vice versa. */
export const OTHER = '101-004-7654321-001';
/** A well-formed account ID that does not exist. */
export const UNKNOWN_ACCOUNT = '101-004-9999999-009';

/** Sees every account. */
export const TOKEN = 'test-token-all-accounts';
/** Granted only OTHER: a 403 on ACCOUNT. */
export const OTHER_TOKEN = 'test-token-other-only';
export const ADMIN_TOKEN = 'test-admin-token';

/** 2024-01-02T12:00:00Z (a Tuesday), in microseconds. */
export const T0 = Date.UTC(2024, 0, 2, 12) * 1000;

export const START_QUOTES: readonly Omit<Tick, 'time'>[] = [
  { instrument: 'EUR_USD', bid: 1.1, ask: 1.1002 },
  { instrument: 'USD_JPY', bid: 150.0, ask: 150.02 },
  { instrument: 'GBP_USD', bid: 1.27, ask: 1.2703 },
  { instrument: 'EUR_GBP', bid: 0.866, ask: 0.8662 },
];

export interface TestApi {
  readonly app: App;
  readonly engine: Engine;
  /** Errors that reached Fastify's error handling (for diagnosing a 5xx). */
  readonly errors: unknown[];
  /** Pushes a quote one microsecond after the clock. */
  quote(instrument: string, bid: number, ask: number): void;
  close(): Promise<void>;
}

/** ApiOptions for a test server; `baseUrl: null` leaves Location/Link/page URLs to the request's Host. */
export type TestApiOptions = Partial<Omit<ApiOptions, 'engine' | 'tokens' | 'baseUrl'>> & { readonly baseUrl?: string | null };

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const engine = createEngine({
    accounts: [
      { id: ACCOUNT, currency: 'USD', balance: '100000', alias: 'contract' },
      { id: HEDGED, currency: 'USD', balance: '100000', hedgingEnabled: true },
      { id: OTHER, currency: 'EUR', balance: '50000' },
    ],
    start: T0,
    seed: 1,
  });
  const { baseUrl = 'http://v20sim.test', ...rest } = options;
  const app = await buildApp({
    engine,
    tokens: [{ token: TOKEN, accounts: '*' }, { token: OTHER_TOKEN, accounts: [OTHER] }],
    adminToken: ADMIN_TOKEN,
    heartbeatMs: 50,
    ...rest,
    ...(baseUrl === null ? {} : { baseUrl }),
  });
  const errors: unknown[] = [];
  app.addHook('onError', async (_request, reply, error) => {
    if (reply.statusCode >= 500 || !(typeof (error as { statusCode?: unknown }).statusCode === 'number')) errors.push(error);
  });
  // After buildApp, so the API's market data (pricing, candles) sees them too.
  let t = T0;
  for (const q of START_QUOTES) engine.pushTick({ ...q, time: (t += 1) });
  return {
    app,
    engine,
    errors,
    quote(instrument, bid, ask) {
      engine.pushTick({ instrument, bid, ask, time: engine.now + 1 });
    },
    close: () => app.close(),
  };
}

export interface Sent {
  readonly status: number;
  readonly headers: LightMyRequestResponse['headers'];
  /** Parsed JSON, or undefined when the body is not JSON. */
  readonly body: unknown;
  readonly text: string;
}

export interface SendOptions {
  readonly payload?: unknown;
  /** Default TOKEN; null sends no Authorization header. */
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /** Content-Type sent with a payload; default application/json; null sends none. */
  readonly contentType?: string | null;
}

export async function send(app: App, method: NonNullable<InjectOptions['method']>, url: string, options: SendOptions = {}): Promise<Sent> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const inject: InjectOptions = { method, url, headers: { ...headers, ...options.headers } };
  if (options.payload !== undefined) {
    inject.payload = typeof options.payload === 'string' || Buffer.isBuffer(options.payload) ? options.payload : JSON.stringify(options.payload);
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    const given = Object.keys(inject.headers ?? {}).some((h) => h.toLowerCase() === 'content-type');
    if (contentType !== null && !given) (inject.headers as Record<string, string>)['content-type'] = contentType;
  }
  const res = await app.inject(inject);
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}

/** `{accountID}` style template -> Fastify's `:accountID` route syntax. */
export function fastifyRoute(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** Whether the app serves `method template` (Fastify's own route table, not a probe). */
export function hasRoute(app: App, method: string, template: string): boolean {
  return app.hasRoute({ method: method.toUpperCase() as 'GET', url: fastifyRoute(template) });
}

/** The routes served right now, as "METHOD /v3/template" strings, from a throwaway app. */
export async function servedRoutes(templates: readonly { method: string; template: string }[]): Promise<Set<string>> {
  const api = await createTestApi();
  try {
    return new Set(templates.filter((r) => hasRoute(api.app, r.method, r.template)).map((r) => `${r.method} ${r.template}`));
  } finally {
    await api.close();
  }
}

export function asRecord(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

/** A field of a JSON object (throws on a missing object), for chained reads in tests. */
export function field<T = unknown>(value: unknown, ...keys: (string | number)[]): T {
  let node: unknown = value;
  for (const k of keys) {
    if (node === null || typeof node !== 'object') throw new Error(`no ${String(k)} in ${JSON.stringify(value).slice(0, 500)}`);
    node = (node as Record<string | number, unknown>)[k];
  }
  return node as T;
}
