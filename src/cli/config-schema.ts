/**
 * The serve config file as a TypeBox schema: compiled with ajv to check files (config.ts), and
 * published as schema/serve-config.schema.json for editors (test/cli/write-serve-schema.ts writes it).
 * `errorMessage` is the sentence a failed check prints after the field's name; `{value}` stands
 * for the value found. Checks that need more than one field or the instrument catalogue (account
 * settings, duplicate tokens, margin rates in range) stay in code.
 */
import { Type, type Static } from 'typebox';
import { ENUM_SPELLINGS } from '../domain/enum-spelling.js';
import { FEED_FORMATS } from '../engine/feeds/options.js';

const CLOCKS = ['live', 'replay', 'manual'] as const;
const DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;
const TOKEN = { type: 'string', pattern: '^\\S{1,512}$', errorMessage: 'must be 1 to 512 characters without spaces' } as const;
const INSTRUMENT_NAME = '^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$';
const DECIMAL = '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$';

function oneOf(values: readonly string[], description: string) {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    { description, errorMessage: `must be one of ${values.join(', ')}, got {value}` },
  );
}

function integer(min: number, max: number, description: string) {
  return Type.Integer({ minimum: min, maximum: max, description, errorMessage: `must be an integer from ${min} to ${max}, got {value}` });
}

function text(description: string) {
  return Type.String({ minLength: 1, description, errorMessage: 'must be a non-empty string, got {value}' });
}

const instrumentName = (description: string) =>
  Type.String({ pattern: INSTRUMENT_NAME, description, errorMessage: 'must be an instrument name such as EUR_USD, got {value}' });

const seed = (description: string) =>
  Type.Union(
    [Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ minLength: 1, maxLength: 256 })],
    { description, errorMessage: 'must be a safe integer or a non-empty string, got {value}' },
  );

const nonNegativeDecimal = (description: string) =>
  Type.String({
    pattern: '^\\+?(\\d+(\\.\\d*)?|\\.\\d+)$',
    description,
    errorMessage: 'must be a non-negative decimal string, got {value}',
  });

const account = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'An account: id ("101-004-1000000-001"), currency ("USD"), and optionally alias, balance, hedging (or hedgingEnabled), marginRate, marginCloseout (true or false, default true), marginPreset (oanda-europe-esma, oanda-corporation-us, oanda-australia-asic, oanda-japan or legacy; default: the catalogue, whose rates are oanda-europe-esma), homeConversionFee (the fee on converting P/L and financing into the account currency, a decimal string in [0, 0.1), default "0.005"), mt4AccountID (a positive integer: the account is tied to that MT4 account, shows it in GET /v3/accounts and refuses clientExtensions, as v20 does for accounts of a third-party terminal).',
    errorMessage: 'must be an object',
  },
);

const tokenGrant = Type.Union([
  Type.String({ ...TOKEN, description: 'a token for every account' }),
  Type.Object(
    {
      token: Type.Unsafe<string>({ ...TOKEN }),
      accounts: Type.Optional(
        Type.Union([Type.Literal('*'), Type.Array(text('an account ID'))], {
          description: 'the accounts the token may use, or "*" for all (the default)',
          errorMessage: 'must be an array of account IDs or "*", got {value}',
        }),
      ),
    },
    { additionalProperties: false, errorMessage: 'must be a token string or {"token": "...", "accounts": ["101-..."] or "*"}' },
  ),
]);

const financing = Type.Object(
  {
    longRate: Type.String({ pattern: DECIMAL, errorMessage: 'must be a decimal string, got {value}' }),
    shortRate: Type.String({ pattern: DECIMAL, errorMessage: 'must be a decimal string, got {value}' }),
    financingDaysOfWeek: Type.Array(
      Type.Object(
        {
          dayOfWeek: Type.Union(
            DAYS.map((d) => Type.Literal(d)),
            { errorMessage: `must be one of ${DAYS.join(', ')}` },
          ),
          daysCharged: integer(0, 7, 'days of financing charged on that day'),
        },
        { errorMessage: `must be an object {dayOfWeek, daysCharged}` },
      ),
      { errorMessage: 'must be an array, got {value}' },
    ),
  },
  { additionalProperties: false, errorMessage: 'must be an object {longRate, shortRate, financingDaysOfWeek}' },
);

const weeklyTime = (description: string) =>
  Type.String({
    pattern: `^(${DAYS.join('|')}) ([01]\\d|2[0-3]):[0-5]\\d$`,
    description,
    errorMessage: 'must be a weekday and New York time such as "FRIDAY 17:00", got {value}',
  });

const rfc3339 = (description: string) =>
  Type.String({
    minLength: 20,
    maxLength: 40,
    description,
    errorMessage: 'must be an RFC 3339 time such as 2024-12-25T22:00:00Z, got {value}',
  });

const marketHours = Type.Object(
  {
    weekly: Type.Optional(
      Type.Union(
        [
          Type.Literal('ALWAYS'),
          Type.Object(
            { open: weeklyTime('the weekly open, New York time'), close: weeklyTime('the weekly close, New York time') },
            { additionalProperties: false, errorMessage: 'must be {"open": "SUNDAY 17:00", "close": "FRIDAY 17:00"}' },
          ),
        ],
        {
          description: 'the weekly session in New York time (default: the FX week, SUNDAY 17:00 to FRIDAY 17:00), or "ALWAYS"',
          errorMessage: 'must be "ALWAYS" or {"open", "close"}',
        },
      ),
    ),
    closures: Type.Optional(
      Type.Array(
        Type.Object(
          {
            from: rfc3339('start of the closure'),
            to: rfc3339('end of the closure (exclusive)'),
            name: Type.Optional(text('e.g. Christmas')),
          },
          { additionalProperties: false, errorMessage: 'must be {"from", "to", "name"?}' },
        ),
        { description: 'closed intervals (holidays)', errorMessage: 'must be an array, got {value}' },
      ),
    ),
  },
  { additionalProperties: false, description: 'when the instrument trades', errorMessage: 'must be an object {weekly, closures}' },
);

const instrument = Type.Object(
  {
    name: instrumentName('the instrument, e.g. EUR_USD; a known one is overridden, a new one added'),
    type: Type.Optional(
      Type.Union([Type.Literal('CURRENCY'), Type.Literal('CFD'), Type.Literal('METAL')], {
        errorMessage: 'must be CURRENCY, CFD or METAL, got {value}',
      }),
    ),
    displayName: Type.Optional(text('the name shown to clients')),
    pipLocation: Type.Optional(integer(-10, 10, 'the power of ten of one pip')),
    displayPrecision: Type.Optional(integer(0, 10, 'decimals of a price')),
    tradeUnitsPrecision: Type.Optional(integer(0, 10, 'decimals of units')),
    minimumTradeSize: Type.Optional(nonNegativeDecimal('smallest order, in units')),
    maximumTrailingStopDistance: Type.Optional(nonNegativeDecimal('in price units')),
    minimumTrailingStopDistance: Type.Optional(nonNegativeDecimal('in price units')),
    maximumPositionSize: Type.Optional(nonNegativeDecimal('in units; 0 = no limit')),
    maximumOrderUnits: Type.Optional(nonNegativeDecimal('in units')),
    marginRate: Type.Optional(nonNegativeDecimal('in (0, 1], e.g. "0.02" for 50:1')),
    financing: Type.Optional(financing),
    marketHours: Type.Optional(marketHours),
  },
  { additionalProperties: false, errorMessage: 'must be an object with at least a name' },
);

const tickSource = Type.Union([
  text('a tick file, relative to this config file'),
  Type.Object(
    {
      file: text('a tick file, relative to this config file'),
      format: Type.Optional(oneOf(FEED_FORMATS, 'the file format (default: detected)')),
      instrument: Type.Optional(instrumentName('for files whose lines do not name one')),
    },
    { additionalProperties: false, errorMessage: 'must be a file name or {"file", "format", "instrument"}' },
  ),
]);

const generator = Type.Union([
  Type.Literal(false, { description: 'no generated prices' }),
  Type.Object(
    {
      seed: Type.Optional(seed('the generator seed')),
      instruments: Type.Optional(
        Type.Array(instrumentName('a generated instrument'), { minItems: 1, errorMessage: 'must name at least one instrument' }),
      ),
      meanIntervalMs: Type.Optional(
        Type.Number({
          minimum: 0.001,
          maximum: 3_600_000,
          description: 'mean time between ticks',
          errorMessage: 'must be a number of milliseconds from 0.001 to 3600000, got {value}',
        }),
      ),
      historyDays: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 365,
          description: 'days of generated quotes before the start that the candles begin with (not traded); 0: none',
          errorMessage: 'must be a whole number of days from 0 to 365, got {value}',
        }),
      ),
    },
    { additionalProperties: false, errorMessage: 'must be false or {"seed", "instruments", "meanIntervalMs", "historyDays"}' },
  ),
]);

const speed = Type.Union(
  [Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }), Type.String({ pattern: '^\\d+(\\.\\d+)?$' }), Type.Literal('max')],
  {
    description: 'replay speed factor (1 = real time) or "max"',
    errorMessage: 'must be a positive number (1 = real time) or "max", got {value}',
  },
);

/** The limits object (src/api/limits.ts); each value 0 turns that limit off. */
const limitsObject = Type.Object(
  {
    requestsPerSecondPerConnection: Type.Optional(integer(0, 1_000_000, 'requests per second on one connection (default 100, as OANDA)')),
    newConnectionsPerSecond: Type.Optional(
      integer(0, 1_000_000, 'new connections per second from one client address (default 2, as OANDA)'),
    ),
    newConnectionsBurst: Type.Optional(
      integer(0, 1_000_000, 'new connections one client address may open at once before the rate applies (default 20)'),
    ),
    streamsPerAccount: Type.Optional(integer(0, 1_000_000, 'open pricing and transaction streams per account (default 20, as OANDA)')),
    maxConnections: Type.Optional(integer(0, 1_000_000, 'open connections the server keeps (default 500)')),
    headersTimeoutMs: Type.Optional(integer(0, 3_600_000, 'time to send the request headers (default 10000)')),
    requestTimeoutMs: Type.Optional(integer(0, 3_600_000, 'time to send a whole request (default 30000)')),
    idleTimeoutMs: Type.Optional(integer(0, 3_600_000, 'a silent connection is closed after this; streams are exempt (default 30000)')),
  },
  { additionalProperties: false, errorMessage: 'must be false or an object of limits' },
);

const TOP_LEVEL = {
  accounts: Type.Optional(
    Type.Array(account, {
      description: 'the accounts (default: two demo accounts, USD and EUR)',
      errorMessage: 'must be an array, got {value}',
    }),
  ),
  tokens: Type.Optional(
    Type.Array(tokenGrant, {
      description: 'API tokens (default: one made up at start and printed)',
      errorMessage: 'must be an array, got {value}',
    }),
  ),
  adminToken: Type.Optional(
    Type.Unsafe<string>({ ...TOKEN, description: 'token of the /sim control API (default: made up at start and printed)' }),
  ),
  instruments: Type.Optional(
    Type.Array(instrument, {
      description: 'instruments added to or overriding the built-in catalogue',
      errorMessage: 'must be an array, got {value}',
    }),
  ),
  ticks: Type.Optional(
    Type.Union([text('a tick file'), Type.Array(tickSource)], {
      description: 'recorded ticks to replay',
      errorMessage: 'must be an array, got {value}',
    }),
  ),
  generator: Type.Optional(generator),
  clock: Type.Optional(oneOf(CLOCKS, 'live (wall clock), replay (tick times at speed) or manual (the control API moves time)')),
  speed: Type.Optional(speed),
  seed: Type.Optional(seed('run seed, recorded with the run')),
  start: Type.Optional(
    Type.String({
      description: 'simulated start time for replay and manual clocks (RFC3339)',
      errorMessage: 'must be an RFC3339 DateTime such as "2024-01-02T00:00:00Z", got {value}',
    }),
  ),
  from: Type.Optional(
    Type.String({
      description: 'replay the tick files from this time (inclusive): RFC3339 with a zone, YYYY-MM-DD (midnight UTC) or UNIX seconds',
      errorMessage: 'must be a time such as "2024-01-02T00:00:00Z", "2024-01-02" or UNIX seconds, got {value}',
    }),
  ),
  to: Type.Optional(
    Type.String({
      description: 'replay the tick files up to this time (exclusive; same forms); they are read no further',
      errorMessage: 'must be a time such as "2024-01-09T00:00:00Z", "2024-01-09" or UNIX seconds, got {value}',
    }),
  ),
  host: Type.Optional(text('interface to listen on (default 127.0.0.1)')),
  port: Type.Optional(integer(0, 65_535, 'port (default 8080; 0 picks a free one)')),
  dataDir: Type.Optional(text('journal every transaction here and restore from it on start (relative to this file)')),
  fsync: Type.Optional(Type.Boolean({ description: 'fdatasync each journal write', errorMessage: 'must be true or false' })),
  recoverTruncated: Type.Optional(
    Type.Boolean({
      description:
        'start even if a journal lost acknowledged transactions (kept: the sound part; the loss is recorded in recoveries.ndjson)',
      errorMessage: 'must be true or false',
    }),
  ),
  heartbeatMs: Type.Optional(integer(100, 3_600_000, 'stream heartbeat interval')),
  baseUrl: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s/?#@]+/?$',
      description:
        'http(s)://host[:port] used in Location, Link and page URLs (default: the Host asked for when it is a name of the server)',
      errorMessage: 'must be http://host[:port] or https://host[:port], got {value}',
    }),
  ),
  allowedHosts: Type.Optional(
    Type.Union([Type.Literal('*'), Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.:\\[\\]-]{1,255}$' }))], {
      description:
        'Host names answered besides localhost, 127.0.0.1, ::1, the listen address and the baseUrl host; others get 421 (DNS rebinding). "*" answers any Host',
      errorMessage: 'must be "*" or an array of host names, got {value}',
    }),
  ),
  limits: Type.Optional(
    Type.Union([Type.Literal(false), limitsObject], {
      description: 'rate, connection, stream and timeout limits over the defaults, or false for none',
      errorMessage: 'must be false or an object of limits',
    }),
  ),
  transactionsInMemory: Type.Optional(
    integer(
      1,
      1_000_000_000,
      'transactions each account keeps in memory, the newest (default 10000); older ones are read from the journal',
    ),
  ),
  recordsInMemory: Type.Optional(
    integer(
      1,
      1_000_000_000,
      'with dataDir: filled or cancelled orders, and closed trades, each account keeps in memory, the newest (default 50000); older ones are paged out to DATA_DIR/.records and read back when asked',
    ),
  ),
  enumSpelling: Type.Optional(
    oneOf(
      ENUM_SPELLINGS,
      "how Order resources spell DEFAULT values: interface (POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL; the default) or documented (DEFAULT, as OANDA's definitions); transactions always show DEFAULT",
    ),
  ),
  priceStreamThrottleMs: Type.Optional(
    integer(0, 60_000, 'pricing stream: at most one price per instrument per this many simulated ms (default 250 as v20; 0 = every price)'),
  ),
};

/** Top-level fields of a serve config (keys starting with $ or // are ignored). */
export const CONFIG_FIELDS: readonly string[] = Object.keys(TOP_LEVEL);

export const ServeConfigSchema = Type.Object(TOP_LEVEL, {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'v20sim serve config',
  description: 'The config file of `v20sim serve --config FILE` (JSON or YAML). Command-line options override its fields.',
  additionalProperties: false,
  patternProperties: { '^(\\$|//)': {} },
  errorMessage: 'the config must be a JSON object',
});

/** A config document that passed the schema. */
export type ServeConfigDocument = Static<typeof ServeConfigSchema>;

/** The text of schema/serve-config.schema.json: the schema above as JSON. */
export function serveConfigSchemaJson(): string {
  // The header first, as a reader of the file expects it.
  const entries = Object.entries(ServeConfigSchema);
  const header = ['$schema', 'title', 'description'];
  const ordered = [...header.flatMap((key) => entries.filter(([k]) => k === key)), ...entries.filter(([k]) => !header.includes(k))];
  return `${JSON.stringify(Object.fromEntries(ordered), null, 2)}\n`;
}
