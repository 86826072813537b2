/**
 * Contract checks against OANDA's own OpenAPI (Swagger 2.0) definitions of the v20 REST API.
 *
 * The spec (`oanda/v20-openapi` json/v20.json, v3.0.25, 2018) lives beside the repository in
 * `../shared/spec/oanda-v20-openapi.json`. Its schemas are JSON Schema draft 4 with Swagger
 * additions; they are compiled with ajv-draft-04:
 *
 * - `strict: false` so Swagger-only keywords (`x-*`, `discriminator`, `example`, `readOnly`) and
 *   the free-text `format` strings OANDA writes (e.g. "A decimal number encoded as a string...")
 *   do not stop compilation. Formats we recognise are given real checks (see FORMAT_CHECKS:
 *   decimals, DateTimes, IDs, instrument names, currencies); the rest are ignored.
 * - The spec declares no `required` and no `additionalProperties: false` anywhere, so extra fields
 *   that current servers send and the 2018 spec lacks (partialFill, requestedUnits,
 *   fullPrice.timestamp, quotePL, homeConversionFactors, ...) are accepted as Swagger allows.
 *   What is checked is the JSON type, enum value and format of every field the spec does name.
 * - Polymorphism: the spec types order and transaction fields as the base `Order` / `Transaction`,
 *   which hold only the common fields. A `$ref` to either is rewritten to "base AND the subtype
 *   named by `type`" (MARKET -> MarketOrder, ORDER_FILL -> OrderFillTransaction, ...), so every
 *   transaction and order is checked against its own definition. An unknown `type` is an error.
 *
 * Status codes the spec does not list for an operation: the `default` response is used if the
 * operation has one (none in this spec). Otherwise an unlisted error status (e.g. 403 where an
 * operation documents only 401, which real servers send for a foreign account, facts section 9;
 * 404 for an unknown account on GET /accounts/{id}; 413/415 from the body parser) is validated
 * against the spec's shared top-level response for that status (`responses/400|401|403|404|405|416`)
 * or, for a status the spec never mentions, the generic `{errorCode?: string, errorMessage: string}`:
 * facts section 2, "error responses all share {errorCode?, errorMessage}". An unlisted success
 * status is a contract failure: there is nothing to fall back to.
 *
 * Where the spec is wrong rather than old: it tags OrderCancel(Reject)Transaction.clientOrderID
 * and MarketOrderDelayedTradeClose.clientTradeID with the numeric OrderID/TradeID format although
 * they hold client IDs; format checks skip client*ID fields (see rewrite()).
 *
 * Stream lines: the spec describes a stream 200 as `{transaction?, heartbeat?}`; on the wire (and
 * in the official client's parser) each line is the object itself, so lines are checked against
 * the definition their `type` names (expectTransactionStreamLine, expectPricingStreamLine).
 *
 * Where the interface differs from the spec on purpose: Order resources spell DEFAULT as
 * POSITION_DEFAULT / TRIGGER_DEFAULT (INTERFACE_SPELLINGS, each entry one field, one value, Order
 * resource paths only); transactions are held to the spec's enums.
 *
 * On top of the spec: every error body must carry `errorMessage` as a string (the interface says
 * "errorMessage (string, required)"), and a success body whose schema names `lastTransactionID`
 * must carry it (interface 1.5: every successful account-scoped body carries it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04Module from 'ajv-draft-04';
import type { ErrorObject, ValidateFunction } from 'ajv';

const here = path.dirname(fileURLToPath(import.meta.url));
/** test/support/api -> repository root -> its sibling `shared/spec`. */
export const SPEC_PATH = path.resolve(here, '..', '..', '..', '..', 'shared', 'spec', 'oanda-v20-openapi.json');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SwaggerResponse {
  readonly $ref?: string;
  readonly description?: string;
  readonly headers?: Record<string, unknown>;
  readonly schema?: JsonObject;
}

interface SwaggerOperation {
  readonly responses: Record<string, SwaggerResponse>;
}

interface SwaggerSpec {
  readonly basePath: string;
  readonly paths: Record<string, Record<string, SwaggerOperation>>;
  readonly definitions: Record<string, JsonObject>;
  readonly responses: Record<string, SwaggerResponse>;
}

export const spec = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as SwaggerSpec;

const SPEC_ID = 'v20.json';

// ------------------------------------------------------------------------------------------------
// Formats: OANDA writes a sentence in `format`; these are the ones with a checkable meaning.

const DECIMAL = /^-?\d+(\.\d+)?$/;
/** RFC 3339 UTC with up to 9 fractional digits, or (Accept-Datetime-Format: UNIX) seconds. */
const DATETIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z|\d{1,12}(\.\d{1,9})?)$/;
const ID = /^\d{1,20}$/;

const FORMAT_CHECKS: readonly { readonly name: string; readonly startsWith: string; readonly re: RegExp }[] = [
  { name: 'DateTime', startsWith: 'The RFC 3339 representation is a string', re: DATETIME },
  { name: 'InstrumentName', startsWith: 'A string containing the base currency and quote currency', re: /^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/ },
  { name: 'TransactionID', startsWith: 'String representation of the numerical OANDA-assigned TransactionID', re: ID },
  { name: 'TradeID', startsWith: 'The string representation of the OANDA-assigned TradeID', re: ID },
  { name: 'OrderID', startsWith: 'The string representation of the OANDA-assigned OrderID', re: ID },
  { name: 'DecimalNumber', startsWith: 'A decimal number encoded as a string', re: DECIMAL },
  { name: 'PriceValue', startsWith: 'A decimal number encodes as a string', re: DECIMAL },
  { name: 'Currency', startsWith: 'A string containing an ISO 4217 currency', re: /^[A-Z]{3}$/ },
  {
    name: 'AccountID',
    startsWith: '"-"-delimited string with format "{siteID}-{divisionID}-{userID}-{accountNumber}"',
    re: /^\d{3}-\d{3}-\d{1,12}-\d{3}$/,
  },
];
/** Format sentence -> short name, for messages. */
const FORMAT_NAMES = new Map<string, string>();

function collectFormats(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectFormats(v, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'format' && typeof v === 'string') into.add(v);
      else collectFormats(v, into);
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Polymorphic Order / Transaction references.

const DEFINITION_BY_UPPER = new Map(Object.keys(spec.definitions).map((name) => [name.toUpperCase(), name]));

/** `ORDER_FILL` + `Transaction` -> `OrderFillTransaction` (case-insensitive, so RESET_RESETTABLE_PL finds ...PLTransaction). */
export function subtypeDefinition(base: 'Order' | 'Transaction', type: unknown): string | undefined {
  if (typeof type !== 'string' || !/^[A-Z_]+$/.test(type)) return undefined;
  if (base === 'Transaction' && type === 'HEARTBEAT') return 'TransactionHeartbeat';
  const name = DEFINITION_BY_UPPER.get(`${type.replace(/_/g, '')}${base}`.toUpperCase());
  return name;
}

const POLYMORPHIC = new Set(['Order', 'Transaction']);

/** Deep copy with `$ref`s made absolute (`v20.json#/definitions/X`) and polymorphic refs split. */
function rewrite(value: Json): Json {
  if (Array.isArray(value)) return value.map(rewrite);
  if (value === null || typeof value !== 'object') return value;
  const ref = value['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
    const name = ref.slice('#/definitions/'.length);
    const absolute = { $ref: `${SPEC_ID}${ref}` };
    return POLYMORPHIC.has(name) ? { allOf: [absolute, { v20Subtype: name }] } : absolute;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) out[k] = rewrite(v);
  const props = out['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [name, schema] of Object.entries(props)) {
      // The spec tags OrderCancel(Reject)Transaction.clientOrderID and
      // MarketOrderDelayedTradeClose.clientTradeID with the OrderID/TradeID format (a copy-paste
      // slip: their descriptions say they are the client's IDs, which are free text).
      if (CLIENT_ID.test(name) && schema !== null && typeof schema === 'object' && !Array.isArray(schema)) {
        const { format: _format, ...rest } = schema;
        props[name] = rest;
      }
    }
  }
  return out;
}

const CLIENT_ID = /^client\w*ID$/;

// ------------------------------------------------------------------------------------------------
// Ajv

// A CommonJS module (module.exports = Ajv, exports.default = Ajv): `.default` is the class either way.
const AjvDraft04 = AjvDraft04Module.default;
const ajv = new AjvDraft04({ strict: false, allErrors: true, logger: false, validateSchema: false });

const formats = new Set<string>();
collectFormats(spec.definitions, formats);
collectFormats(spec.paths, formats);
for (const text of formats) {
  const check = FORMAT_CHECKS.find((c) => text.startsWith(c.startsWith));
  // Unknown formats (specifiers, user specifiers, 'Bearer <token>') are accepted as any string.
  ajv.addFormat(text, check === undefined ? true : check.re);
  if (check !== undefined) FORMAT_NAMES.set(text, check.name);
}

function describeError(e: ErrorObject, body: unknown): string {
  const what =
    e.keyword === 'format'
      ? `is not a ${FORMAT_NAMES.get(String(e.params['format'])) ?? 'valid value'}${/\(in \w+\)$/.exec(e.message ?? '')?.[0].replace('(', ' (') ?? ''}`
      : `${e.message ?? e.keyword}${e.keyword === 'enum' ? ` ${JSON.stringify(e.params['allowedValues'])}` : ''}`;
  return `${e.instancePath || '(root)'} ${what}: ${JSON.stringify(pointerGet(body, e.instancePath))?.slice(0, 200)}`;
}

function describeErrors(errors: readonly ErrorObject[], body: unknown): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of errors) {
    // allOf wraps the subtype error that says what is wrong; base and subtype report the same field twice.
    if (e.keyword === 'allOf' || isAllowed(e, body)) continue;
    const key = `${e.instancePath} ${e.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(describeError(e, body));
  }
  return out;
}

ajv.addKeyword({
  keyword: 'v20Subtype',
  errors: true,
  validate: function validateSubtype(
    this: unknown,
    base: 'Order' | 'Transaction',
    data: unknown,
    _parent: unknown,
    cxt?: { instancePath: string },
  ): boolean {
    const self = validateSubtype as unknown as { errors?: Partial<ErrorObject>[] | null };
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return true;
    const type = (data as Record<string, unknown>)['type'];
    const name = subtypeDefinition(base, type);
    const at = cxt?.instancePath ?? '';
    if (name === undefined) {
      self.errors = [
        {
          keyword: 'v20Subtype',
          instancePath: `${at}/type`,
          params: { base, type },
          message: `no ${base} definition for type ${JSON.stringify(type)}`,
        },
      ];
      return false;
    }
    const validate = ajv.getSchema(`${SPEC_ID}#/definitions/${name}`);
    if (validate === undefined) throw new Error(`definition ${name} did not compile`);
    if (validate(data)) return true;
    self.errors = (validate.errors ?? []).map((e: ErrorObject) => ({
      ...e,
      instancePath: `${at}${e.instancePath}`,
      message: `${e.message ?? ''} (in ${name})`,
    }));
    return false;
  },
});

const definitions: JsonObject = {};
for (const [name, schema] of Object.entries(spec.definitions)) definitions[name] = rewrite(schema);
ajv.addSchema({ id: SPEC_ID, definitions } as unknown as Record<string, unknown>, SPEC_ID);

/** The shared v20 error shape, for statuses no spec response covers. */
const GENERIC_ERROR: JsonObject = { type: 'object', properties: { errorCode: { type: 'string' }, errorMessage: { type: 'string' } } };

// ------------------------------------------------------------------------------------------------
// Allow-list: mismatches that come from the spec being older than current servers.

export interface Allowance {
  /** Where the error is: a regex on the JSON pointer into the body. */
  readonly at: RegExp;
  /** The ajv keyword that failed (enum, type, format, v20Subtype). */
  readonly keyword: string;
  /** The exact values tolerated at that place (compared as JSON). */
  readonly values: readonly unknown[];
  /** Which source shows that current servers differ from the 2018 spec. */
  readonly reason: string;
}

/**
 * Mismatches that come from the spec being older than current servers. Each entry is narrow (one
 * keyword, named values, a path pattern) and cites the facts sheet; everything else fails.
 * Entries are added only for mismatches a test actually met.
 */
export const ALLOWED_SPEC_DRIFT: readonly Allowance[] = [];

/** One value the interface spells differently from the spec's enum, in one context. */
export interface InterfaceSpelling {
  /** The Order field (the last segment of the JSON pointer). */
  readonly field: string;
  /** The value the interface shows there, outside the spec's enum. */
  readonly value: string;
  /** Where it is allowed: the pointer, up to the field, of an Order resource in a response body. */
  readonly context: RegExp;
  /** The interface line that shows it. */
  readonly source: string;
}

/**
 * Where an Order resource sits in the v20 bodies: GET orders / pendingOrders, GET orders/{id},
 * GET accounts/{id} (`account.orders`), GET changes (`changes.orders*`) and the dependent orders
 * inside a Trade. No transaction path matches (`orderCreateTransaction`, `transactions/N`,
 * `changes/transactions/N`), nor a bare value checked against a definition (path ``).
 */
const ORDER_RESOURCE = String.raw`(?:/account/orders/\d+|/orders/\d+|/order|/changes/orders(?:Created|Cancelled|Filled|Triggered)/\d+|(?:/trades/\d+|/trade)/(?:takeProfit|stopLoss|trailingStopLoss)Order)`;

/**
 * The interface's spellings of DEFAULT in Order resources, which the 2018 spec's enums
 * (OrderPositionFill, OrderTriggerCondition: DEFAULT) lack. spec/v3-interface.md 2.3, the note
 * under the Order table: "Transactions show positionFill DEFAULT ...; Order resources show
 * POSITION_DEFAULT, TRIGGER_DEFAULT, DEFAULT_FILL" (also the table rows positionFill and
 * triggerCondition). The facts sheet (3.3) has them from 2016 captures. partialFill is in no
 * definition, so DEFAULT_FILL needs no entry. Transactions keep the spec's enum, strictly.
 */
export const INTERFACE_SPELLINGS: readonly InterfaceSpelling[] = [
  {
    field: 'positionFill',
    value: 'POSITION_DEFAULT',
    context: new RegExp(`^${ORDER_RESOURCE}/positionFill$`),
    source: 'v3-interface.md 2.3: "positionFill | string | POSITION_DEFAULT seen in Order resources"',
  },
  {
    field: 'triggerCondition',
    value: 'TRIGGER_DEFAULT',
    context: new RegExp(`^${ORDER_RESOURCE}/triggerCondition$`),
    source: 'v3-interface.md 2.3: "triggerCondition | string | TRIGGER_DEFAULT seen in Order resources"',
  },
];

const INTERFACE_ALLOWANCES: readonly Allowance[] = INTERFACE_SPELLINGS.map((s) => ({
  at: s.context,
  keyword: 'enum',
  values: [s.value],
  reason: s.source,
}));

function pointerGet(body: unknown, pointer: string): unknown {
  let node: unknown = body;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function isAllowed(error: ErrorObject, body: unknown): boolean {
  return [...ALLOWED_SPEC_DRIFT, ...INTERFACE_ALLOWANCES].some((a) => {
    if (a.keyword !== error.keyword || !a.at.test(error.instancePath)) return false;
    const value = JSON.stringify(pointerGet(body, error.instancePath));
    return a.values.some((v) => JSON.stringify(v) === value);
  });
}

// ------------------------------------------------------------------------------------------------
// Lookup

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `/v3/accounts/{accountID}/orders` or `/accounts/{accountID}/orders` -> the spec's path key. */
function specPath(template: string): string {
  return template.startsWith(spec.basePath) ? template.slice(spec.basePath.length) : template;
}

export function specOperation(method: string, template: string): SwaggerOperation | undefined {
  return spec.paths[specPath(template)]?.[method.toLowerCase()];
}

function resolveResponse(r: SwaggerResponse): SwaggerResponse {
  if (r.$ref === undefined) return r;
  const name = r.$ref.replace('#/responses/', '');
  const target = spec.responses[name];
  if (target === undefined) throw new Error(`unresolved response ${r.$ref}`);
  return target;
}

export interface ResponseContract {
  /** Where the schema came from, for messages. */
  readonly source: string;
  readonly response: SwaggerResponse;
  readonly validate: ValidateFunction;
  readonly declaresLastTransactionID: boolean;
}

const compiled = new Map<string, ResponseContract>();

export function responseContract(method: string, template: string, status: number): ResponseContract {
  const key = `${method.toUpperCase()} ${specPath(template)} ${status}`;
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  const op = specOperation(method, template);
  if (op === undefined) throw new Error(`the spec has no operation ${method.toUpperCase()} ${specPath(template)}`);
  let source = `paths[${specPath(template)}].${method.toLowerCase()}.responses.${status}`;
  let response = op.responses[String(status)] ?? op.responses['default'];
  if (response === undefined) {
    if (status < 400)
      throw new Error(
        `the spec documents no ${status} for ${method.toUpperCase()} ${specPath(template)} (documented: ${Object.keys(op.responses).join(', ')})`,
      );
    response = spec.responses[String(status)] ?? { schema: GENERIC_ERROR };
    source =
      spec.responses[String(status)] !== undefined
        ? `responses.${status} (not listed for the operation)`
        : 'generic v20 error shape (status not in spec)';
  }
  response = resolveResponse(response);
  const schema = response.schema ?? (status >= 400 ? GENERIC_ERROR : { type: 'object' });
  const props = (schema['properties'] ?? {}) as JsonObject;
  const contract: ResponseContract = {
    source,
    response,
    validate: ajv.compile(rewrite(schema) as Record<string, unknown>),
    declaresLastTransactionID: 'lastTransactionID' in props,
  };
  compiled.set(key, contract);
  return contract;
}

/** A readable list of schema errors, without the allowed drift. */
export function conformanceErrors(method: string, template: string, status: number, body: unknown): string[] {
  const contract = responseContract(method, template, status);
  const problems: string[] = [];
  if (!contract.validate(body)) problems.push(...describeErrors(contract.validate.errors ?? [], body));
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    problems.push(`body is not a JSON object: ${JSON.stringify(body)?.slice(0, 200)}`);
    return problems;
  }
  const record = body as Record<string, unknown>;
  if (status >= 400 && typeof record['errorMessage'] !== 'string') problems.push('error body without errorMessage string');
  if (status < 300 && contract.declaresLastTransactionID && typeof record['lastTransactionID'] !== 'string') {
    problems.push('success body without lastTransactionID (the schema declares it)');
  }
  return problems;
}

/**
 * Throws (with every problem listed) unless `body` conforms to the spec response of `method`
 * `pathTemplate` `status`. `pathTemplate` is the spec's template, with or without `/v3`.
 */
export function expectConformsTo(method: string, pathTemplate: string, status: number, body: unknown): void {
  const problems = conformanceErrors(method, pathTemplate, status, body);
  if (problems.length > 0) {
    const contract = responseContract(method, pathTemplate, status);
    throw new Error(
      `${method.toUpperCase()} ${pathTemplate} ${status} does not conform to ${contract.source}:\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}

/** Headers the spec documents for a response (besides RequestID), e.g. Location or Link. */
export function documentedHeaders(method: string, template: string, status: number): string[] {
  const response = responseContract(method, template, status).response;
  return Object.keys(response.headers ?? {});
}

// ------------------------------------------------------------------------------------------------
// Stream lines. The spec describes a stream 200 as `{transaction?, heartbeat?}` (a generator
// artefact); on the wire each line is the object itself, which is also how the official client
// parses it (by `type`: HEARTBEAT or a transaction type; PRICE or HEARTBEAT for pricing).

const definitionValidators = new Map<string, ValidateFunction>();

export function definitionValidator(name: string): ValidateFunction {
  const cached = definitionValidators.get(name);
  if (cached !== undefined) return cached;
  if (spec.definitions[name] === undefined) throw new Error(`no definition ${name}`);
  const schema: JsonObject = POLYMORPHIC.has(name)
    ? { allOf: [{ $ref: `${SPEC_ID}#/definitions/${name}` }, { v20Subtype: name }] }
    : { $ref: `${SPEC_ID}#/definitions/${name}` };
  const v = ajv.compile(schema);
  definitionValidators.set(name, v);
  return v;
}

/** Validates a value against a named definition (Transaction and Order by subtype). */
export function expectDefinition(name: string, value: unknown): void {
  const v = definitionValidator(name);
  if (v(value)) return;
  const problems = describeErrors(v.errors ?? [], value);
  if (problems.length === 0) return;
  throw new Error(
    `value does not conform to definitions.${name}:\n  ${problems.join('\n  ')}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`,
  );
}

export function expectTransactionStreamLine(line: unknown): void {
  const type = (line as { type?: unknown } | null)?.type;
  if (type === 'HEARTBEAT') {
    expectDefinition('TransactionHeartbeat', line);
    const hb = line as Record<string, unknown>;
    if (typeof hb['lastTransactionID'] !== 'string' || typeof hb['time'] !== 'string')
      throw new Error(`heartbeat without lastTransactionID/time: ${JSON.stringify(line)}`);
  } else {
    expectDefinition('Transaction', line);
  }
}

export function expectPricingStreamLine(line: unknown): void {
  const type = (line as { type?: unknown } | null)?.type;
  if (type === 'HEARTBEAT') expectDefinition('PricingHeartbeat', line);
  else if (type === 'PRICE') expectDefinition('ClientPrice', line);
  else throw new Error(`pricing stream line of unknown type: ${JSON.stringify(line)}`);
}

/** Every operation the spec defines, as `/v3` templates. */
export function specOperations(): { method: HttpMethod; template: string }[] {
  const out: { method: HttpMethod; template: string }[] = [];
  for (const [p, ops] of Object.entries(spec.paths)) {
    for (const m of Object.keys(ops)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(m))
        out.push({ method: m.toUpperCase() as HttpMethod, template: `${spec.basePath}${p}` });
    }
  }
  return out;
}
