/**
 * The scenario file format as a TypeBox schema: compiled with ajv to check scenario files
 * (load.ts), and published as schema/scenario.schema.json for editors (test/scenario/write-schema.ts
 * writes it; a test keeps the two equal). `patternErrorMessage` words a failed pattern.
 */
import { Type } from 'typebox';
import { HOME_CONVERSION_FEE_PATTERN } from '../domain/conversion.js';
import { MARGIN_PRESET_NAMES } from '../domain/margin-presets.js';
import { FEED_FORMATS } from '../engine/feeds/index.js';
import { STEP_DEFINITIONS } from './schema-steps.js';
import { constOf, enumOf, oneOf, patterned, ref, requires, types } from './schema-kit.js';

const timeSchema = patterned(
  '^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})|T(\\+(\\d+(\\.\\d+)?(us|ms|s|m|h|d))+)?)$',
  'must be an RFC3339 time (2024-01-02T12:00:00Z) or T+<duration> after config.start (T+90s, T+1m30s, T+250ms)',
  {
    description:
      'An RFC3339 time with a zone (2014-05-02T12:30:00Z), or `T+<duration>` counted from config.start (T+5s, T+1h30m, T+250ms); `T` alone is the start.',
  },
);

const durationSchema = patterned('^(\\d+(\\.\\d+)?(us|ms|s|m|h|d))+$', 'must be a duration such as 5s, 1m30s, 250ms, 2h, 1d', {
  description: 'A duration: numbers with units us, ms, s, m, h, d, e.g. 90s, 1m30s, 250ms.',
});

/** site-division-user-number */
const ACCOUNT_ID = '\\d{3}-\\d{3}-\\d{1,12}-\\d{3}';

const accountIdSchema = patterned(`^${ACCOUNT_ID}$`, 'must be a v20 account ID such as 101-004-1234567-001', {
  description: 'A v20 account ID: site-division-user-number, e.g. 101-004-1234567-001.',
});

const accountIdOrVarSchema = patterned(
  `^(${ACCOUNT_ID}|\\$\\{[A-Za-z_][A-Za-z0-9_]*\\})$`,
  'must be a v20 account ID (101-004-1234567-001) or a variable such as ${account}',
);

const relativeFileSchema = Type.String({
  minLength: 1,
  pattern: '^[^/\\\\]',
  patternErrorMessage: 'must be a path relative to the scenario file',
  description: 'A path relative to the scenario file.',
});

const instrumentNameSchema = patterned('^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$', 'must be an instrument name such as EUR_USD');

const decimalStringSchema = patterned('^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)$', 'must be a decimal number as a string, e.g. "100000"');

const configSchema = Type.Object(
  {
    start: Type.Optional(
      ref('time', {
        description:
          "When the accounts are opened (CREATE and the first deposit are stamped with it) and what T+ counts from. Default: the first tick of `prices` (the generator's start for a generator), else 2024-01-02T00:00:00Z.",
      }),
    ),
    seed: Type.Optional(types(['integer', 'string'], { description: 'Recorded with the run; the default seed of a price generator.' })),
    accounts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: ref('accountId'),
            currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'Home currency, default USD.' })),
            balance: Type.Optional(ref('decimalString', { description: 'Opening deposit, default "100000".' })),
            alias: Type.Optional(Type.String()),
            hedgingEnabled: Type.Optional(Type.Boolean()),
            marginRate: Type.Optional(ref('decimalString')),
            marginCloseout: Type.Optional(
              Type.Boolean({
                description:
                  'Whether a margin closeout (marginCloseoutPercent >= 1) closes the positions with MARKET orders of reason MARGIN_CLOSEOUT. Default true; false lets the account ride on.',
              }),
            ),
            marginPreset: Type.Optional(
              enumOf(MARGIN_PRESET_NAMES, {
                description: "The division whose margin rates the account's instruments use. Default oanda-europe-esma.",
              }),
            ),
            homeConversionFee: Type.Optional(
              patterned(HOME_CONVERSION_FEE_PATTERN, 'must be a decimal string in [0, 0.1), e.g. "0.005"', {
                description:
                  'The home-currency conversion fee f: gains convert at mid x (1 - f), losses at mid x (1 + f). A decimal string in [0, 0.1), default "0.005".',
              }),
            ),
            mt4AccountID: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: Number.MAX_SAFE_INTEGER,
                description:
                  'Ties the account to a third-party trading terminal (MT4): GET /v3/accounts shows this mt4AccountID, and any clientExtensions (order, trade, on-fill, or a client extensions modify) are refused with a *_REJECT transaction.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 100, description: 'Accounts opened at start. Default: one USD account 101-004-1234567-001 with 100000.' },
      ),
    ),
    instruments: Type.Optional(
      Type.Array(Type.Object({ name: ref('instrumentName') }), {
        description: 'Overrides of the built-in instrument specs (28 FX pairs) or extra instruments, as in the v20 Instrument resource.',
      }),
    ),
    tokens: Type.Optional(
      Type.Array(
        Type.Object(
          {
            token: Type.String({ pattern: '^\\S{1,512}$' }),
            accounts: Type.Optional(
              oneOf([constOf('*'), Type.Array(ref('accountId'))], {
                description: 'The accounts the token may use: "*" (default) or a list of account IDs.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          description:
            'Bearer tokens the API accepts. The first one is sent by every request unless the step says otherwise. Default: one token `scenario-token` for every account.',
        },
      ),
    ),
    baseUrl: Type.Optional(
      Type.String({
        pattern: '^https?://[^/\\s]+$',
        description: 'Base URL used in Location, Link and page URLs. Default http://127.0.0.1:8080.',
      }),
    ),
  },
  { description: "The simulator: accounts, instrument overrides, seed, tokens and the clock's start.", additionalProperties: false },
);

const tickSchema = oneOf(
  [
    Type.Object(
      {
        time: Type.Optional(ref('time')),
        instrument: Type.Optional(ref('instrumentName')),
        bid: Type.Number({ exclusiveMinimum: 0 }),
        ask: Type.Number({ exclusiveMinimum: 0 }),
        closeoutBid: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
        closeoutAsk: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      },
      { additionalProperties: false },
    ),
    Type.Unsafe({
      type: 'array',
      minItems: 3,
      maxItems: 4,
      items: [{ $ref: '#/definitions/time' }, { type: ['string', 'number'] }, { type: 'number' }, { type: 'number' }],
    }),
  ],
  {
    description:
      'One quote: {time, instrument, bid, ask} or [time, instrument, bid, ask] or [time, bid, ask] (instrument from the source). Prices are numbers.',
  },
);

const priceSourceSchema = Type.Object(
  {
    ticks: Type.Optional(
      Type.Array(ref('tick'), { description: 'Inline ticks in time order (equal times keep their order); each needs a time.' }),
    ),
    file: Type.Optional(
      ref('relativeFile', {
        description:
          'A tick file relative to this scenario (csv, ndjson, LEAN zip, TrueFX, HistData; optionally .gz). Never copied: referenced in place.',
      }),
    ),
    format: Type.Optional(
      enumOf(FEED_FORMATS, {
        description: 'File format; detected from the name and first line when absent.',
      }),
    ),
    instrument: Type.Optional(
      ref('instrumentName', {
        description: 'Instrument of ticks that do not name one (file formats without an instrument column; inline [time, bid, ask]).',
      }),
    ),
    from: Type.Optional(ref('time', { description: 'Skip file ticks before this time. Ticks before config.start are always skipped.' })),
    to: Type.Optional(ref('time', { description: 'Skip file ticks after this time.' })),
    generator: Type.Optional(
      Type.Object(
        {
          seed: Type.Optional(types(['integer', 'string'], { description: 'Default: config.seed, else 0.' })),
          instruments: Type.Optional(Type.Array(ref('instrumentName'), { minItems: 1, description: 'Default [EUR_USD].' })),
          start: Type.Optional(ref('time', { description: 'Default: config.start.' })),
          count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000000 })),
          end: Type.Optional(ref('time')),
          meanIntervalMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Mean gap between ticks, default 250.' })),
        },
        {
          additionalProperties: false,
          description: 'The built-in seeded generator (random walk with bursts of wide spreads).',
          anyOf: [requires('count'), requires('end')],
        },
      ),
    ),
  },
  {
    description:
      'One of: {ticks: [...]} inline; {file: path, format?, instrument?, from?, to?} a recorded tick file; {generator: {...}} seeded synthetic prices.',
    additionalProperties: false,
    oneOf: [
      Type.Unsafe({
        required: ['ticks'],
        not: Type.Unsafe({ anyOf: [requires('file'), requires('generator'), requires('format'), requires('from'), requires('to')] }),
      }),
      Type.Unsafe({ required: ['file'], not: Type.Unsafe({ anyOf: [requires('ticks'), requires('generator')] }) }),
      Type.Unsafe({
        required: ['generator'],
        not: Type.Unsafe({
          anyOf: [requires('ticks'), requires('file'), requires('format'), requires('instrument'), requires('from'), requires('to')],
        }),
      }),
    ],
  },
);

export const ScenarioSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String({ description: 'The schema of this file (JSON scenario files).' })),
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Shown in reports as the test name.' }),
    description: Type.Optional(Type.String({ description: 'What the scenario pins down and why the expected values are what they are.' })),
    config: Type.Optional(ref('config')),
    prices: Type.Optional(
      oneOf([ref('priceSource'), Type.Array(ref('priceSource'), { minItems: 1, maxItems: 16 })], {
        description:
          'Where quotes come from: inline ticks, a tick file (relative to this file), or the seeded generator; a list of sources is merged by time (equal times: earlier source first). Steps `advance` feed these ticks to the engine up to a time. Without prices, quotes come only from `tick` and `ticks` steps.',
      }),
    ),
    vars: Type.Optional(
      Type.Unsafe({
        type: 'object',
        description: 'Constants for `${name}` in strings.',
        propertyNames: Type.Unsafe({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }),
        additionalProperties: true,
      }),
    ),
    golden: Type.Optional(
      oneOf(
        [
          ref('relativeFile'),
          Type.Unsafe({
            type: 'object',
            minProperties: 1,
            propertyNames: ref('accountIdOrVar'),
            additionalProperties: ref('relativeFile'),
          }),
        ],
        {
          description:
            "Pins the whole transaction log (NDJSON, as the journal writes it) to a file beside the scenario, compared byte for byte at the end. A string is the first account's log; an object maps account IDs to files. `v20sim scenario run --update` rewrites the files.",
        },
      ),
    ),
    steps: Type.Array(ref('step'), {
      minItems: 1,
      maxItems: 10000,
      description:
        'The timeline, run in order. Each step has exactly one action key: advance, tick, ticks, request (with expect and capture), mark, expectTransactions, expectState, openStream, expectStream, closeStream.',
    }),
  },
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'v20sim scenario',
    description:
      'A deterministic trading test for v20sim: accounts, prices over time, the requests a client makes and what must come back. Run with `v20sim scenario run`. In YAML, reference this schema with `# yaml-language-server: $schema=<path>/scenario.schema.json`. Strings may use variables: `${account}` (the first account\'s ID), `${account1}`, `${account2}`, ... (accounts in order), `${token}` (the first token), names from `vars`, and names captured by earlier request steps. A string that is exactly one `${name}` takes the variable\'s value with its type; `$${` writes a literal `${`. MATCHERS, for values the author does not fix (YAML tag / JSON object form): `!any` / {"$any": true}: any value that is present; `!id` / {"$id": true}: any v20 ID (a string of digits); `!time` / {"$time": true}: any DateTime (RFC3339 or UNIX seconds); `!time 2024-01-02T12:00:00Z` / {"$time": "..."}: the same instant in any format; `!decimal 1.1` / {"$decimal": "1.1"}: a decimal compared numerically ("1.10000" equals 1.1; an empty `!decimal` accepts any decimal); `!range [1, 2]` / {"$range": [1, 2]}: a number or decimal string within the bounds, inclusive (null: unbounded); `!regex \'^\\d+$\'` / {"$regex": "..."}: a string matching the regular expression; `!absent` / {"$absent": true}: the key must not be there; `!exact {...}` / {"$exact": ...}: objects inside must have no keys beyond the listed ones; `!contains [...]` / {"$contains": [...]}: an array holding items that match each listed one, in any order; `!length 2` / {"$length": 2}: an array or string of that length. Plain values match strictly (the string "1.10000" does not equal the number 1.1); objects match partially (keys not listed are ignored); arrays must have the listed length and match item by item. For editors, declare the tags in the yaml-language-server setting `yaml.customTags`: ["!any scalar", "!id scalar", "!time scalar", "!decimal scalar", "!range sequence", "!regex scalar", "!absent scalar", "!exact mapping", "!exact sequence", "!contains sequence", "!length scalar"].',
    additionalProperties: false,
    definitions: {
      time: timeSchema,
      duration: durationSchema,
      accountId: accountIdSchema,
      accountIdOrVar: accountIdOrVarSchema,
      relativeFile: relativeFileSchema,
      instrumentName: instrumentNameSchema,
      decimalString: decimalStringSchema,
      config: configSchema,
      tick: tickSchema,
      priceSource: priceSourceSchema,
      ...STEP_DEFINITIONS,
    },
  },
);

/** The text of schema/scenario.schema.json: the schema above as JSON, its header first. */
export function scenarioSchemaJson(): string {
  const entries = Object.entries(ScenarioSchema);
  const header = ['$schema', 'title', 'description'];
  const ordered = [...header.flatMap((key) => entries.filter(([k]) => k === key)), ...entries.filter(([k]) => !header.includes(k))];
  return `${JSON.stringify(Object.fromEntries(ordered), null, 2)}\n`;
}
