import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { AccountConfig } from '../account/state.js';
import type { TokenGrant } from '../api/index.js';
import type { InstrumentOverride } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';
import { formatPath } from './compare.js';
import { isObject, type Json } from './json.js';
import type { LoadContext } from './load-context.js';
import { defaultStart, priceSource } from './load-prices.js';
import { checkVariables, resolveSteps } from './load-steps.js';
import { DEFAULT_ACCOUNT_ID, DEFAULT_BASE_URL, DEFAULT_TOKEN, type GoldenSpec, type PriceSourceSpec, type Scenario } from './model.js';
import { ScenarioSchema, scenarioSchemaJson } from './schema.js';
import { parseScenarioText, SCENARIO_FILE_BYTES_MAX, SourceError, type Location, type SourceMap } from './source.js';
import { isRelativeTime, parseScenarioTime } from './time.js';

/** Something wrong with a scenario file itself (exit code 2), with where it is. */
export interface Problem {
  readonly location: Location;
  readonly message: string;
}

export class ScenarioInvalid extends Error {
  constructor(readonly problems: readonly Problem[]) {
    super(problems.map((p) => `${p.location.file}:${p.location.line}:${p.location.col}: ${p.message}`).join('\n'));
    this.name = 'ScenarioInvalid';
  }
}

/** Most problems reported for one file. */
const PROBLEMS_MAX = 20;

/** Where the schema file sits: `schema/` at the package root, from src/scenario and from dist/scenario alike. */
export const SCHEMA_URL = new URL('../../schema/scenario.schema.json', import.meta.url);

let validator: ValidateFunction | undefined;

/** The scenario schema as JSON (the content of schema/scenario.schema.json). */
export function scenarioSchema(): Json {
  return JSON.parse(scenarioSchemaJson()) as Json;
}

function validate(): ValidateFunction {
  if (validator === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
    ajv.addKeyword('patternErrorMessage');
    validator = ajv.compile(ScenarioSchema);
  }
  return validator;
}

const ACTION_KEYS = [
  'advance',
  'tick',
  'ticks',
  'request',
  'mark',
  'expectTransactions',
  'expectState',
  'openStream',
  'expectStream',
  'closeStream',
] as const;
const SOURCE_KEYS = ['ticks', 'file', 'generator'] as const;

export interface LoadOptions {
  /** Read the tick files whole (LoadContext.readTickFiles). */
  readonly readTickFiles?: boolean;
}

/** Reads, parses, validates and resolves a scenario file. Throws ScenarioInvalid. */
export function loadScenario(file: string, cwd: string, options: LoadOptions = {}): Scenario {
  const path = resolve(cwd, file);
  const display = relative(cwd, path) || path;
  let text: string;
  try {
    if (statSync(path).size > SCENARIO_FILE_BYTES_MAX) throw new Error(`larger than ${SCENARIO_FILE_BYTES_MAX} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioInvalid([
      { location: { file: display, line: 1, col: 1 }, message: `cannot read the file: ${(err as Error).message}` },
    ]);
  }
  let parsed;
  try {
    parsed = parseScenarioText(text, display);
  } catch (err) {
    if (err instanceof SourceError) throw new ScenarioInvalid([{ location: err.location, message: err.reason }]);
    throw err;
  }
  return new Loader(path, display, parsed.map, cwd, options.readTickFiles === true).load(parsed.data);
}

/** `steps[3].request.path` from `/steps/3/request/path`. */
function pointerText(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return formatPath(parts) || '(top level)';
}

class Loader implements LoadContext {
  private readonly problems: Problem[] = [];
  readonly dir: string;

  constructor(
    private readonly file: string,
    private readonly display: string,
    readonly map: SourceMap,
    readonly cwd: string,
    readonly readTickFiles: boolean,
  ) {
    this.dir = dirname(file);
  }

  problem(pointer: string, message: string, key = false): void {
    if (this.problems.length >= PROBLEMS_MAX) return;
    const location = key ? this.map.keyAt(pointer) : this.map.at(pointer);
    const where = pointerText(pointer);
    this.problems.push({ location, message: where === '(top level)' ? message : `${where}: ${message}` });
  }

  private fail(): never {
    throw new ScenarioInvalid(this.problems);
  }

  load(data: unknown): Scenario {
    this.structure(data);
    if (this.problems.length > 0) this.fail();
    const valid = validate();
    if (!valid(data)) {
      for (const e of pickErrors(valid.errors ?? [])) this.schemaProblem(e);
      this.fail();
    }
    const doc = data as Json;
    const scenario = this.resolve(doc);
    if (this.problems.length > 0) this.fail();
    return scenario;
  }

  /** Checks the schema words poorly: one action per step, one kind per price source, one body. */
  private structure(data: unknown): void {
    if (!isObject(data)) return;
    const steps = data['steps'];
    if (Array.isArray(steps)) {
      steps.forEach((step, i) => {
        if (!isObject(step)) return;
        const actions = ACTION_KEYS.filter((k) => Object.hasOwn(step, k));
        if (actions.length === 0) {
          const others = Object.keys(step).filter((k) => !['name', 'expect', 'capture'].includes(k));
          this.problem(
            `/steps/${i}`,
            others.length > 0
              ? `unknown step '${others[0]}'; a step is one of ${ACTION_KEYS.join(', ')}`
              : `a step needs an action: one of ${ACTION_KEYS.join(', ')}`,
          );
        } else if (actions.length > 1) {
          this.problem(
            `/steps/${i}/${actions[1]}`,
            `one action per step: '${actions[0]}' and '${actions[1]}' must be separate steps`,
            true,
          );
        }
        const request = step['request'];
        if (isObject(request) && Object.hasOwn(request, 'body') && Object.hasOwn(request, 'rawBody')) {
          this.problem(`/steps/${i}/request/rawBody`, 'body and rawBody cannot both be given', true);
        }
      });
    }
    const prices = data['prices'];
    const sources = Array.isArray(prices) ? prices : prices === undefined ? [] : [prices];
    sources.forEach((source, i) => {
      if (!isObject(source)) return;
      const pointer = Array.isArray(prices) ? `/prices/${i}` : '/prices';
      const kinds = SOURCE_KEYS.filter((k) => Object.hasOwn(source, k));
      if (kinds.length !== 1)
        this.problem(
          pointer,
          kinds.length === 0
            ? 'a price source needs one of ticks, file or generator'
            : `a price source is one of ticks, file or generator, not ${kinds.join(' and ')}`,
        );
      const only: Readonly<Record<string, readonly string[]>> = {
        ticks: ['ticks', 'instrument'],
        file: ['file', 'format', 'instrument', 'from', 'to'],
        generator: ['generator'],
      };
      const kind = kinds[0];
      if (kinds.length === 1 && kind !== undefined) {
        for (const key of Object.keys(source)) {
          if (
            !(only[kind] as readonly string[]).includes(key) &&
            (SOURCE_KEYS as readonly string[]).concat(['format', 'instrument', 'from', 'to']).includes(key)
          ) {
            this.problem(`${pointer}/${key}`, `'${key}' does not apply to a ${kind} source`, true);
          }
        }
      }
    });
  }

  private schemaProblem(e: ErrorObject): void {
    const pointer = e.instancePath;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        this.problem(pointer, `missing property '${String(params['missingProperty'])}'`);
        return;
      case 'additionalProperties':
        this.problem(
          `${pointer}/${String(params['additionalProperty'])}`,
          `unknown property '${String(params['additionalProperty'])}'`,
          true,
        );
        return;
      case 'pattern': {
        const custom = (e.parentSchema as Json | undefined)?.['patternErrorMessage'];
        this.problem(
          pointer,
          `${typeof custom === 'string' ? custom : `must match ${String(params['pattern'])}`}, got ${JSON.stringify(e.data)}`,
        );
        return;
      }
      case 'enum':
        this.problem(
          pointer,
          `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(e.data)}`,
        );
        return;
      case 'const':
        this.problem(pointer, `must be ${JSON.stringify(params['allowedValue'])}, got ${JSON.stringify(e.data)}`);
        return;
      case 'type':
        this.problem(pointer, `must be ${String(params['type']).replace(',', ' or ')}, got ${JSON.stringify(e.data)?.slice(0, 60)}`);
        return;
      default:
        this.problem(pointer, e.message ?? 'is not valid');
    }
  }

  private resolve(doc: Json): Scenario {
    const config = isObject(doc['config']) ? doc['config'] : {};
    const accounts = this.accounts(config);
    const tokens = this.tokens(config, accounts);
    const seed = (config['seed'] as number | string | undefined) ?? 0;
    const instruments = (config['instruments'] as InstrumentOverride[] | undefined) ?? [];
    const rawSources =
      doc['prices'] === undefined ? [] : Array.isArray(doc['prices']) ? (doc['prices'] as Json[]) : [doc['prices'] as Json];
    const sourcePointer = (i: number): string => (Array.isArray(doc['prices']) ? `/prices/${i}` : '/prices');

    // The start: given, else the earliest first tick of the sources, else the default.
    let start: Micros | undefined;
    if (typeof config['start'] === 'string') {
      if (isRelativeTime(config['start'])) this.problem('/config/start', 'must be an absolute RFC3339 time (T+ times count from it)');
      else start = this.time(config['start'], '/config/start', undefined);
    }
    if (this.problems.length > 0) this.fail();
    start ??= defaultStart(this, rawSources, sourcePointer);
    if (this.problems.length > 0) this.fail();
    const sources: PriceSourceSpec[] = [];
    rawSources.forEach((raw, i) => {
      const source = priceSource(this, raw, sourcePointer(i), start, seed);
      if (source === undefined) return;
      if (source.kind === 'ticks' && (source.ticks[0]?.time ?? start) < start)
        this.problem(`${sourcePointer(i)}/ticks/0`, 'the first tick is before config.start');
      if (source.kind === 'generator' && source.start < start)
        this.problem(`${sourcePointer(i)}/generator/start`, 'the generator starts before config.start');
      sources.push(source);
    });

    const vars = new Map<string, unknown>();
    vars.set('account', accounts[0]?.id);
    accounts.forEach((a, i) => vars.set(`account${i + 1}`, a.id));
    vars.set('token', tokens[0]?.token);
    if (isObject(doc['vars'])) {
      for (const [name, value] of Object.entries(doc['vars'])) {
        if (vars.has(name)) this.problem(`/vars/${name}`, `'${name}' is a built-in variable`, true);
        else vars.set(name, value);
      }
    }

    const goldens = this.goldens(doc['golden'], accounts[0]?.id ?? DEFAULT_ACCOUNT_ID);
    const steps = resolveSteps(this, doc['steps'] as unknown[], start, new Set(vars.keys()), accounts);
    for (const g of goldens) checkVariables(this, g.account, '/golden', new Set(vars.keys()));

    return {
      file: this.file,
      display: this.display,
      name: doc['name'] as string,
      description: doc['description'] as string | undefined,
      config: { start, seed, accounts, instruments, tokens, baseUrl: (config['baseUrl'] as string | undefined) ?? DEFAULT_BASE_URL },
      sources,
      vars,
      goldens,
      steps,
      map: this.map,
    };
  }

  private accounts(config: Json): AccountConfig[] {
    const raw = config['accounts'] as Json[] | undefined;
    if (raw === undefined) return [{ id: DEFAULT_ACCOUNT_ID, currency: 'USD', balance: '100000' }];
    const seen = new Set<string>();
    return raw.map((a, i) => {
      const id = a['id'] as string;
      if (seen.has(id)) this.problem(`/config/accounts/${i}/id`, `account ${id} is listed twice`);
      seen.add(id);
      const account: { -readonly [K in keyof AccountConfig]: AccountConfig[K] } = {
        id,
        currency: (a['currency'] as string | undefined) ?? 'USD',
      };
      if (a['balance'] !== undefined) account.balance = a['balance'] as string;
      if (a['alias'] !== undefined) account.alias = a['alias'] as string;
      if (a['hedgingEnabled'] !== undefined) account.hedgingEnabled = a['hedgingEnabled'] as boolean;
      if (a['marginRate'] !== undefined) account.marginRate = a['marginRate'] as string;
      if (a['marginCloseout'] !== undefined) account.marginCloseout = a['marginCloseout'] as boolean;
      if (a['marginPreset'] !== undefined) account.marginPreset = a['marginPreset'] as string;
      if (a['homeConversionFee'] !== undefined) account.homeConversionFee = a['homeConversionFee'] as string;
      if (a['mt4AccountID'] !== undefined) account.mt4AccountID = a['mt4AccountID'] as number;
      return account;
    });
  }

  private tokens(config: Json, accounts: readonly AccountConfig[]): TokenGrant[] {
    const raw = config['tokens'] as Json[] | undefined;
    if (raw === undefined) return [{ token: DEFAULT_TOKEN, accounts: '*' }];
    const ids = new Set(accounts.map((a) => a.id));
    return raw.map((t, i) => {
      const list = t['accounts'];
      if (Array.isArray(list)) {
        list.forEach((id, j) => {
          if (!ids.has(id as string)) this.problem(`/config/tokens/${i}/accounts/${j}`, `no account ${String(id)} in config.accounts`);
        });
        return { token: t['token'] as string, accounts: list as string[] };
      }
      return { token: t['token'] as string, accounts: '*' };
    });
  }

  time(text: string, pointer: string, start: Micros | undefined): Micros | undefined {
    if (isRelativeTime(text) && start === undefined) {
      this.problem(pointer, 'a T+ time needs config.start (or an earlier absolute time to count from)');
      return undefined;
    }
    const t = parseScenarioTime(text, start);
    if (t === null) this.problem(pointer, `not a valid time: ${text}`);
    return t ?? undefined;
  }

  private goldens(raw: unknown, firstAccount: string): GoldenSpec[] {
    if (raw === undefined) return [];
    const entries: [string, string, string][] =
      typeof raw === 'string'
        ? [[firstAccount, raw, '/golden']]
        : Object.entries(raw as Json).map(([k, v]) => [k, v as string, `/golden/${k}`]);
    return entries.map(([account, file, pointer]) => {
      const path = resolve(this.dir, file);
      return { account, path, display: isAbsolute(file) ? file : relative(this.cwd, path) || path, location: this.map.at(pointer) };
    });
  }
}

/**
 * The errors worth showing from ajv's allErrors list: a branch of oneOf/anyOf fails with a type
 * or const error when the value has another shape, so those go when a deeper or more specific
 * error exists for the same value; summaries (oneOf, anyOf, if) go when anything else is left.
 */
function pickErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => !['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword));
  const pool = specific.length > 0 ? specific : [...errors];
  const kept = pool.filter((e) => {
    if (e.keyword !== 'type' && e.keyword !== 'const' && e.keyword !== 'enum') return true;
    return !pool.some(
      (o) =>
        o !== e &&
        o.keyword !== 'type' &&
        o.keyword !== 'const' &&
        o.keyword !== 'enum' &&
        (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)),
    );
  });
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const e of kept) {
    const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  // Several type errors for one value (a oneOf of types): keep the first as the summary.
  return out.filter(
    (e, i) => !(e.keyword === 'type' && out.findIndex((o) => o.keyword === 'type' && o.instancePath === e.instancePath) !== i),
  );
}
