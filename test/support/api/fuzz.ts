/**
 * Invariants for fuzzing the API through `app.inject`, and generators of malformed input.
 *
 * For every answer: never a 5xx; a JSON object body; on 4xx an `errorMessage` string. And for an
 * answer that says nothing happened, nothing happened: the account's lastTransactionID and the
 * JSON of GET /v3/accounts/{id} are unchanged when the answer is 400 without a reject
 * transaction, 401, 403, 404 without a transaction, 405, 413 or 415. An answer that carries a
 * reject transaction may only have appended transactions: the account's resources are unchanged.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { ACCOUNT, TOKEN, type TestApi } from './harness.js';

export interface Snapshot {
  readonly last: Record<string, number>;
  readonly json: Record<string, string>;
}

/** The account the fuzz targets (the others are not addressed by it). */
const WATCHED = [ACCOUNT];

/** lastTransactionID and GET /v3/accounts/{id} of the watched accounts. */
export async function snapshot(api: TestApi): Promise<Snapshot> {
  const last: Record<string, number> = {};
  const json: Record<string, string> = {};
  for (const id of WATCHED) {
    last[id] = api.engine.account(id)?.state.lastTransactionID ?? -1;
    const res = await api.app.inject({ method: 'GET', url: `/v3/accounts/${id}`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, `GET /v3/accounts/${id}: ${res.body} ${describeErrors(api)}`).toBe(200);
    json[id] = res.body;
  }
  return { last, json };
}

/** The account JSON without the fields a reject transaction moves (lastTransactionID). */
function withoutLastTransactionID(text: string): string {
  const body = JSON.parse(text) as { account: Record<string, unknown>; lastTransactionID?: string };
  delete body.lastTransactionID;
  delete body.account['lastTransactionID'];
  return JSON.stringify(body);
}

/** The server-side errors behind a 5xx, with stacks. */
export function describeErrors(api: TestApi): string {
  return api.errors.map((e) => (e instanceof Error ? (e.stack ?? e.message) : String(e))).join('\n');
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
  readonly headers: Record<string, unknown>;
}

/** Parses and checks the generic invariants of one response. */
export function checkAnswer(res: { statusCode: number; body: string; headers: Record<string, unknown> }, what: string): Answer {
  expect(res.statusCode, `${what} -> ${res.statusCode} ${res.body.slice(0, 500)}`).toBeLessThan(500);
  expect(res.headers['requestid'], `${what}: RequestID`).toBeTypeOf('string');
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error(`${what} -> ${res.statusCode} with a non-JSON body: ${res.body.slice(0, 300)}`);
  }
  expect(body !== null && typeof body === 'object' && !Array.isArray(body), `${what}: JSON object body`).toBe(true);
  const record = body as Record<string, unknown>;
  if (res.statusCode >= 400) expect(record['errorMessage'], `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeTypeOf('string');
  return { status: res.statusCode, body: record, text: res.body, headers: res.headers };
}

function hasKey(body: Record<string, unknown>, re: RegExp): boolean {
  return Object.keys(body).some((k) => re.test(k));
}

/** Whether the answer says that no transaction was written. */
export function saysNothingHappened(a: Answer): boolean {
  if ([401, 403, 405, 413, 415].includes(a.status)) return true;
  if (a.status === 400) return !hasKey(a.body, /RejectTransaction$/) && a.body['relatedTransactionIDs'] === undefined;
  if (a.status === 404) return !hasKey(a.body, /Transaction$/) && a.body['relatedTransactionIDs'] === undefined;
  return false;
}

/** The state invariants between two snapshots, given the answer. */
export async function checkState(api: TestApi, before: Snapshot, a: Answer, what: string): Promise<void> {
  if (a.status < 400) return;
  const after = await snapshot(api);
  if (saysNothingHappened(a)) {
    expect(after.last, `${what} -> ${a.status} changed lastTransactionID: ${a.text.slice(0, 300)}`).toEqual(before.last);
    expect(after.json, `${what} -> ${a.status} changed the account: ${a.text.slice(0, 300)}`).toEqual(before.json);
  } else if (a.status === 400 || a.status === 404) {
    // A reject: transactions appended, nothing else.
    for (const id of WATCHED) {
      expect(withoutLastTransactionID(after.json[id] as string), `${what} -> ${a.status} reject changed ${id}`).toBe(
        withoutLastTransactionID(before.json[id] as string),
      );
    }
  }
}

/** Sends, checks the generic invariants and the state invariants. */
export async function fuzzRequest(
  api: TestApi,
  options: InjectOptions,
  what = `${options.method ?? 'GET'} ${String(options.url)}`,
): Promise<Answer> {
  const before = await snapshot(api);
  const res = await api.app.inject(options);
  const answer = checkAnswer(res, res.statusCode >= 500 ? `${what}\n${describeErrors(api)}\n` : what);
  await checkState(api, before, answer, what);
  return answer;
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${TOKEN}`, ...extra };
}

/** Nothing any request did may reach Object.prototype. */
export function expectNoPrototypePollution(): void {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'type', 'units', 'isAdmin', 'instrument', 'accounts'])
    expect(probe[key], `Object.prototype.${key}`).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

// ------------------------------------------------------------------------------------------------
// Generators. They yield FuzzText, which prints short in counterexamples (a 100 kB string would
// otherwise fill the report).

export interface FuzzText {
  readonly text: string;
  [fc.toStringMethod](): string;
}

export function fuzzText(text: string): FuzzText {
  return {
    text,
    [fc.toStringMethod]: () =>
      text.length > 120 ? `${JSON.stringify(text.slice(0, 60))}... (${text.length} chars)` : JSON.stringify(text),
  };
}

function texts(arb: fc.Arbitrary<string>): fc.Arbitrary<FuzzText> {
  return arb.map(fuzzText);
}

const BAD_DECIMALS = [
  '1e5',
  '1E-3',
  '0x10',
  '1,5',
  ' 1',
  '1 ',
  'NaN',
  'Infinity',
  '-Infinity',
  '--1',
  '1.2.3',
  '',
  '.',
  '+-1',
  '١٢٣',
  '1_000',
  '0b1',
  '½',
  '1/2',
  '∞',
  '\u0000',
  '9'.repeat(80),
];
const BAD_ENUMS = [
  '',
  'market',
  'Market',
  'MARKET ',
  'LIMIT_ORDER',
  'DEFAULT_FILL',
  'POSITION_DEFAULT',
  'TRIGGER_DEFAULT',
  'GUARANTEED_STOP_LOSS',
  'FIXED_PRICE',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

/** A string of n characters drawn from a few awkward ones. */
export const hugeString = fc
  .integer({ min: 1_000, max: 120_000 })
  .chain((n) => fc.constantFrom('9', 'a', 'é', '😀', '"', '\\', ' ', '\u0000').map((ch) => ch.repeat(Math.ceil(n / ch.length))));

/** A JSON text of nested arrays or objects, `depth` deep. */
export const deepJsonText = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

/** Wrong JSON types and hostile values for one field, as JSON text. */
export const badFieldValueText: fc.Arbitrary<FuzzText> = texts(
  fc.oneof(
    fc.constantFrom('null', 'true', 'false', '0', '-1', '1.5', '1e400', '-0', '[]', '{}', '[1,2]', '{"a":1}', '""'),
    fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '0')),
    fc.constantFrom(...BAD_DECIMALS).map((s) => JSON.stringify(s)),
    fc.constantFrom(...BAD_ENUMS).map((s) => JSON.stringify(s)),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => JSON.stringify(s)),
    fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
    hugeString.map((s) => JSON.stringify(s)),
    deepJsonText,
    fc.constantFrom(
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
      '{"__proto__":null}',
      '{"id":"x","__proto__":{"isAdmin":true}}',
      '[{"__proto__":{"polluted":1}}]',
    ),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  ),
);

/** Random JSON text, and text that is not JSON. */
export const anyBodyText: fc.Arbitrary<FuzzText> = texts(
  fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      '{',
      '}',
      '{"order":',
      '{"order":{"type":"MARKET",}}',
      "{'order':1}",
      'undefined',
      'NaN',
      '{"a":1}{"b":2}',
      '\uFEFF{}',
      '{"a":1}\n\n\n',
      '[',
      ']',
      '""',
      ' ',
      '\n',
      '{"order":{"type":"MARKET","units":"1",,}}',
      'null',
      '0',
    ),
    deepJsonText,
    fc.constantFrom(
      '{"__proto__":{"polluted":true},"order":{"type":"MARKET","instrument":"EUR_USD","units":"1"}}',
      '{"order":{"__proto__":{"type":"MARKET","instrument":"EUR_USD","units":"1"}}}',
      '{"order":{"type":"MARKET","instrument":"EUR_USD","units":"1","constructor":{"prototype":{"polluted":true}}}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ),
  ),
);

/** Values for query parameters: text that is (mostly) not what the endpoint wants. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
  fc.constantFrom(
    ...BAD_DECIMALS,
    ...BAD_ENUMS,
    '0',
    '-1',
    '1',
    '500',
    '501',
    '1000',
    '1001',
    '5000',
    '5001',
    '99999999999999999999',
    '1.0',
    '01',
    'ALL',
    'PENDING',
    'OPEN',
    'CLOSED',
    'EUR_USD',
    'EUR_USD,',
    ',EUR_USD',
    'EUR_USD,,USD_JPY',
    'XXX_YYY',
    'eur_usd',
    '1,2,3',
    '1,,2',
    '1,a',
    '2024-01-02T12:00:00Z',
    '2024-13-45T99:99:99Z',
    '1704196800',
    '1704196800.123456789123',
    '-1704196800',
    'true',
    'false',
    'TRUE',
    'S5',
    'M',
    'BAM',
    'MMM',
    'EUR_USD:S5:M',
    'EUR_USD:S5',
    'EUR_USD:S5:M:X',
    'ORDER',
    'ORDER_FILL,FOO',
    'America/New_York',
    'Friday',
    'friday',
  ),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** A query string of known and random keys (repeated keys included), percent-encoded or raw. */
export function queryString(keys: readonly string[]): fc.Arbitrary<FuzzText> {
  const known = keys.length > 0 ? keys : ['count', 'instruments', 'type'];
  const pair = fc.tuple(
    fc.oneof(
      fc.constantFrom(...known),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }),
      fc.constantFrom('__proto__', 'constructor', 'toString', ''),
    ),
    queryValue,
    fc.boolean(),
  );
  return texts(
    fc
      .array(pair, { maxLength: 6 })
      .map((pairs) =>
        pairs
          .map(([k, v, encode]) =>
            encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k.replace(/[#&?\s]/g, '')}=${v.replace(/[#&\s]/g, '')}`,
          )
          .join('&'),
      ),
  );
}

/** Path segments: percent-encoding, dots, unicode, very long. */
export const pathSegment: fc.Arbitrary<FuzzText> = texts(
  fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'))),
    fc.constantFrom(
      '.',
      '..',
      '...',
      '%',
      '%2',
      '%zz',
      '%00',
      '%2F',
      '%2e%2e',
      '%252F',
      '@',
      '@@',
      '@%00',
      '%40',
      '0',
      '-1',
      '1.0',
      '1e3',
      '00001',
      '99999999999999999999',
      '%E2%82%AC',
      '%C0%AF',
      '%FF',
      '~',
      '*',
      ';',
      ',',
      '$',
      '+',
      '!',
      "'",
      '(',
      ')',
      '__proto__',
      'constructor',
      'EUR_USD.',
      'EUR%5FUSD',
    ),
    fc.integer({ min: 200, max: 6_000 }).map((n) => 'a'.repeat(n)),
    fc.integer({ min: 1, max: 3_000 }).map((n) => `@${'x'.repeat(n)}`),
  ),
);

/** Header values the Node HTTP parser accepts (visible ASCII, space, tab). */
export const headerValue: fc.Arbitrary<FuzzText> = texts(
  fc.oneof(
    fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
    fc.constantFrom(
      '',
      ' ',
      '\t',
      'Bearer',
      'Bearer ',
      `Bearer  ${TOKEN}`,
      `bearer ${TOKEN}`,
      `BEARER ${TOKEN}`,
      `Bearer ${TOKEN} `,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN},Bearer ${TOKEN}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer test-admin-token',
      `Token ${TOKEN}`,
      'UNIX',
      'RFC3339',
      'unix',
      'rfc3339',
      'RFC 3339',
      'UNIX ',
    ),
    fc.integer({ min: 100, max: 8_000 }).map((n) => `Bearer ${'t'.repeat(n)}`),
  ),
);

export const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  'json',
  '',
  ';',
  'application/json; boundary=x; charset=utf-8',
);
