/**
 * The one API test harness: a v20sim API over a fresh engine, and helpers to send requests through
 * `app.inject`. Two setups: `createTestApi` (contract, client and fuzz tests: three accounts, two
 * tokens and an admin token, quotes for a few instruments) and `harness` (endpoint tests: two
 * accounts, one token, EUR/USD and USD/JPY a second apart); `startTestApi` builds any other.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../../src/api/app.js';
import type { ApiOptions } from '../../../src/api/context.js';
import { createEngine, type Engine } from '../../../src/engine/engine.js';
import type { Tick } from '../../../src/domain/tick.js';
import type { Journal } from '../../../src/journal/journal.js';
import type { AccountConfig } from '../../../src/account/state.js';
import { ACCOUNT, ADMIN_TOKEN, OTHER, OTHER_TOKEN, SECOND, SECOND_ACCOUNT, T0, TOKEN } from '../constants.js';

export { ACCOUNT, ADMIN_TOKEN, OTHER, OTHER_TOKEN, SECOND_ACCOUNT, T0, TOKEN, UNKNOWN_ACCOUNT } from '../constants.js';
/** Hedging USD account. */
export const HEDGED = SECOND_ACCOUNT;

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

export interface TestSetup {
  readonly accounts: readonly AccountConfig[];
  readonly start?: number;
  readonly seed?: number;
  readonly journal?: Journal;
  readonly tokens?: ApiOptions['tokens'];
  /** Quotes pushed once the API listens to the engine (so pricing and candles see them). */
  readonly quotes?: readonly Tick[];
  readonly api?: Partial<Omit<ApiOptions, 'engine'>>;
}

/** An engine with the setup's accounts and the API over it, then the setup's quotes. */
export async function startTestApi(setup: TestSetup): Promise<{ app: App; engine: Engine }> {
  const engine = createEngine({
    accounts: setup.accounts,
    start: setup.start ?? T0,
    ...(setup.seed === undefined ? {} : { seed: setup.seed }),
    ...(setup.journal === undefined ? {} : { journal: setup.journal }),
  });
  const app = await buildApp({ engine, tokens: setup.tokens ?? [{ token: TOKEN, accounts: '*' }], ...setup.api });
  for (const q of setup.quotes ?? []) engine.pushTick(q);
  return { app, engine };
}

export async function createTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const { baseUrl = 'http://v20sim.test', ...rest } = options;
  let t = T0;
  const { app, engine } = await startTestApi({
    accounts: [
      { id: ACCOUNT, currency: 'USD', balance: '100000', alias: 'contract' },
      { id: HEDGED, currency: 'USD', balance: '100000', hedgingEnabled: true },
      { id: OTHER, currency: 'EUR', balance: '50000' },
    ],
    seed: 1,
    tokens: [
      { token: TOKEN, accounts: '*' },
      { token: OTHER_TOKEN, accounts: [OTHER] },
    ],
    api: { adminToken: ADMIN_TOKEN, heartbeatMs: 50, ...rest, ...(baseUrl === null ? {} : { baseUrl }) },
    quotes: START_QUOTES.map((q) => ({ ...q, time: (t += 1) })),
  });
  const errors: unknown[] = [];
  app.addHook('onError', async (_request, reply, error) => {
    if (reply.statusCode >= 500 || !(typeof (error as { statusCode?: unknown }).statusCode === 'number')) errors.push(error);
  });
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are read loosely
export type JsonBody = Record<string, any>;

/** The endpoint tests' server: `request` injects with the main token, `quote` steps the clock a second. */
export interface Harness {
  engine: Engine;
  app: App;
  request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse & { json(): JsonBody }>;
  quote(instrument: string, bid: number, ask: number): void;
}

/** The token of the endpoint tests' setup (`harness`). */
export const HARNESS_TOKEN = 'test-token';

/** Two accounts (USD netting, EUR hedging), EUR/USD and USD/JPY quoted at T0 + 1 s and + 2 s. */
export async function harness(options: Partial<ApiOptions> = {}): Promise<Harness> {
  let clock = T0;
  const { app, engine } = await startTestApi({
    accounts: [
      { id: ACCOUNT, currency: 'USD' },
      { id: SECOND_ACCOUNT, currency: 'EUR', hedgingEnabled: true },
    ],
    tokens: [
      { token: HARNESS_TOKEN, accounts: '*' },
      { token: 'only-other', accounts: [SECOND_ACCOUNT] },
    ],
    api: options,
  });
  const quote = (instrument: string, bid: number, ask: number): void => {
    clock += SECOND;
    engine.pushTick({ instrument, time: clock, bid, ask });
  };
  quote('EUR_USD', 1.1, 1.1002);
  quote('USD_JPY', 150, 150.02);
  return {
    engine,
    app,
    quote,
    request: async (method, url, body, headers = {}) => {
      const injected: InjectOptions = { method: method ?? 'GET', url, headers: { authorization: `Bearer ${HARNESS_TOKEN}`, ...headers } };
      if (body !== undefined) injected.payload = body as Record<string, unknown>;
      const response: LightMyRequestResponse = await app.inject(injected);
      return response as unknown as LightMyRequestResponse & { json(): JsonBody };
    },
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
    inject.payload =
      typeof options.payload === 'string' || Buffer.isBuffer(options.payload) ? options.payload : JSON.stringify(options.payload);
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
