/** The scenario schema's steps: actions, requests and what must come back (see schema.ts). */
import { Type } from 'typebox';
import { constOf, enumOf, oneOf, patterned, ref, requires, types } from './schema-kit.js';

const expectationSchema = Type.Unsafe({
  description:
    'An expected value: plain JSON matched partially (objects) or strictly (scalars), or a matcher (!any, !id, !time, !decimal, !range, !regex, !absent, !exact, !contains, !length; see the top-level description).',
});

const headersMapSchema = Type.Unsafe({
  type: 'object',
  additionalProperties: types(['string', 'null']),
  description: 'HTTP headers; a null value removes a default header (e.g. Authorization: null sends no token).',
});

const requestSchema = Type.Unsafe({
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  description: 'An HTTP request to the v3 API, sent through the real Fastify app (in process; stream paths over a loopback socket).',
  properties: {
    method: enumOf(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'], { description: 'Default GET.' }),
    path: Type.String({ pattern: '^/', description: 'Path with optional query, e.g. /v3/accounts/${account}/orders/${orderId}.' }),
    query: Type.Unsafe({
      type: 'object',
      additionalProperties: types(['string', 'number', 'boolean']),
      description: 'Query parameters appended to the path (URL-encoded).',
    }),
    token: types(['string', 'null'], {
      description: 'Bearer token to send (default: the first config token); null sends no Authorization header.',
    }),
    headers: ref('headersMap'),
    body: Type.Unsafe({
      description: 'JSON body (sent with Content-Type: application/json). Decimals must be strings, as v20 wants: units: "10000".',
    }),
    rawBody: Type.String({
      description: 'Body sent verbatim (for malformed JSON); Content-Type application/json unless headers say otherwise.',
    }),
  },
  not: Type.Unsafe({ required: ['body', 'rawBody'] }),
});

const requestExpectSchema = Type.Object(
  {
    status: Type.Optional(ref('expectation', { description: 'HTTP status, e.g. 201.' })),
    headers: Type.Optional(
      Type.Unsafe({
        type: 'object',
        description: 'Header values (names case-insensitive); matchers allowed, !absent for a header that must not be sent.',
      }),
    ),
    body: Type.Optional(ref('expectation', { description: 'The JSON body, matched partially: keys not listed are ignored.' })),
  },
  { additionalProperties: false, description: 'What the response must be.' },
);

const captureSchema = Type.Unsafe({
  type: 'object',
  description:
    'Variables taken from the response: name -> path such as body.orderCreateTransaction.id, body.orders[0].id, headers.location, status.',
  propertyNames: Type.Unsafe({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
  additionalProperties: patterned(
    '^(body|headers|status)(\\.[^.\\[\\]]+|\\[\\d+\\])*$',
    'must be a path into the response: body.a.b, body.list[0].id, headers.location or status',
  ),
});

const markNameSchema = patterned('^[A-Za-z_][A-Za-z0-9_-]*$', 'must be a name (letters, digits, _ and -)');

const transactionListSchema = Type.Array(oneOf([Type.String({ pattern: '^[A-Z_]+$' }), Type.Unsafe({ type: 'object' })]), {
  description:
    'Expected transactions in order, and no others: a transaction type ("ORDER_FILL") or a partial transaction object with matchers.',
});

const advanceSchema = oneOf(
  [
    ref('time'),
    constOf('end'),
    Type.Object(
      { to: Type.Optional(ref('time')), by: Type.Optional(ref('duration')), ticks: Type.Optional(Type.Integer({ minimum: 1 })) },
      { additionalProperties: false, minProperties: 1, maxProperties: 1 },
    ),
  ],
  {
    description:
      "Feed the price source's ticks up to and including a time, then move the clock there (GTD/GFD orders expire on the way): a time, {to: time}, {by: duration} from the current clock, {ticks: n} (the next n ticks), or `end` (every remaining tick).",
  },
);

const stepSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Shown in the report instead of the generated step label.' })),
    advance: Type.Optional(ref('advance')),
    tick: Type.Optional(
      ref('tick', {
        description: "Push one quote now (after the source's ticks up to its time). Without a time it is stamped with the current clock.",
      }),
    ),
    ticks: Type.Optional(Type.Array(ref('tick'), { minItems: 1, description: 'Push several quotes, in order.' })),
    request: Type.Optional(ref('request')),
    expect: Type.Optional(ref('requestExpect')),
    capture: Type.Optional(ref('capture')),
    mark: Type.Optional(
      ref('markName', { description: "Remember every account's lastTransactionID under a name, for `since` of expectTransactions." }),
    ),
    expectTransactions: Type.Optional(
      oneOf(
        [
          ref('transactionList'),
          Type.Object(
            {
              since: Type.Optional(oneOf([ref('markName'), Type.Integer({ minimum: 0 }), Type.String({ pattern: '^(0|[1-9]\\d*)$' })])),
              accountID: Type.Optional(ref('accountIdOrVar')),
              transactions: ref('transactionList'),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            'The transactions created since a point, in order, and no others. Default point: where the previous expectTransactions of the account ended (the start of the log for the first). Object form: {since: markName | transaction ID, accountID, transactions: [...]}.',
        },
      ),
    ),
    expectState: Type.Optional(
      Type.Object(
        {
          accountID: Type.Optional(ref('accountIdOrVar')),
          summary: Type.Optional(ref('expectation')),
          account: Type.Optional(ref('expectation')),
          orders: Type.Optional(Type.Unsafe({ type: 'object' })),
          trades: Type.Optional(Type.Unsafe({ type: 'object' })),
          positions: Type.Optional(Type.Unsafe({ type: 'object' })),
          pendingOrders: Type.Optional(ref('expectation')),
          openTrades: Type.Optional(ref('expectation')),
        },
        {
          additionalProperties: false,
          minProperties: 1,
          description:
            'Account state now, in v20 resource shapes (read from the engine, no request sent): summary (AccountSummary), account (Account), orders / trades (specifier -> Order / Trade, !absent for none), positions (instrument -> Position), pendingOrders, openTrades (lists, newest first).',
        },
      ),
    ),
    openStream: Type.Optional(
      oneOf(
        [
          ref('markName'),
          Type.Object(
            {
              name: ref('markName'),
              accountID: Type.Optional(ref('accountIdOrVar')),
              token: Type.Optional(Type.String()),
              headers: Type.Optional(ref('headersMap')),
              via: Type.Optional(enumOf(['http', 'engine'])),
            },
            { additionalProperties: false },
          ),
        ],
        {
          description:
            'Open a transaction stream client now: a name, or {name, accountID, token, headers, via}. via http (default) reads GET .../transactions/stream over a loopback socket; via engine subscribes to the engine and writes the lines the stream would send. Heartbeats are not recorded.',
        },
      ),
    ),
    expectStream: Type.Optional(
      oneOf(
        [
          ref('transactionList'),
          Type.Object({ name: Type.Optional(ref('markName')), lines: ref('transactionList') }, { additionalProperties: false }),
        ],
        {
          description:
            'The lines the stream client received since it opened or since the previous expectStream of it, in order, and no others: a list, or {name, lines}. Items as in expectTransactions.',
        },
      ),
    ),
    closeStream: Type.Optional(ref('markName', { description: 'Disconnect a stream client (all are closed at the end).' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    allOf: [
      Type.Unsafe({ if: requires('expect'), then: requires('request') }),
      Type.Unsafe({ if: requires('capture'), then: requires('request') }),
    ],
  },
);

/** The definitions the steps use, by name. */
export const STEP_DEFINITIONS = {
  expectation: expectationSchema,
  headersMap: headersMapSchema,
  request: requestSchema,
  requestExpect: requestExpectSchema,
  capture: captureSchema,
  markName: markNameSchema,
  transactionList: transactionListSchema,
  advance: advanceSchema,
  step: stepSchema,
};
