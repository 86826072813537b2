import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { AccountConfig } from '../account/state.js';
import type { TokenGrant } from '../api/context.js';
import type { InstrumentOverride } from '../domain/instruments.js';
import type { Micros } from '../domain/time.js';
import type { FeedFormat } from '../engine/feeds/index.js';
import { checkMatcher, formatPath, matchersIn, resolveMatcherTimes } from './matchers.js';
import {
  DEFAULT_ACCOUNT_ID, DEFAULT_BASE_URL, DEFAULT_START, DEFAULT_TOKEN, type Action, type GoldenSpec, type PriceSourceSpec, type RequestSpec,
  type ResponseExpectation, type Scenario, type Since, type StateChecks, type Step, type TickSpec, type GeneratorSpec,
} from './model.js';
import { firstTickOf } from './prices.js';
import { ScenarioSchema, scenarioSchemaJson } from './schema.js';
import { parseScenarioText, SCENARIO_FILE_BYTES_MAX, SourceError, type Location, type SourceMap } from './source.js';
import { isRelativeTime, parseDuration, parseScenarioTime, showTime } from './time.js';
import { variablesIn } from './vars.js';

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

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

const ACTION_KEYS = ['advance', 'tick', 'ticks', 'request', 'mark', 'expectTransactions', 'expectState', 'openStream', 'expectStream', 'closeStream'] as const;
const SOURCE_KEYS = ['ticks', 'file', 'generator'] as const;

/** Reads, parses, validates and resolves a scenario file. Throws ScenarioInvalid. */
export function loadScenario(file: string, cwd: string): Scenario {
  const path = resolve(cwd, file);
  const display = relative(cwd, path) || path;
  let text: string;
  try {
    if (statSync(path).size > SCENARIO_FILE_BYTES_MAX) throw new Error(`larger than ${SCENARIO_FILE_BYTES_MAX} bytes`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioInvalid([{ location: { file: display, line: 1, col: 1 }, message: `cannot read the file: ${(err as Error).message}` }]);
  }
  let parsed;
  try {
    parsed = parseScenarioText(text, display);
  } catch (err) {
    if (err instanceof SourceError) throw new ScenarioInvalid([{ location: err.location, message: err.reason }]);
    throw err;
  }
  return new Loader(path, display, parsed.map, cwd).load(parsed.data);
}

/** `steps[3].request.path` from `/steps/3/request/path`. */
export function pointerText(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return formatPath(parts) || '(top level)';
}

class Loader {
  private readonly problems: Problem[] = [];
  private readonly dir: string;

  constructor(private readonly file: string, private readonly display: string, private readonly map: SourceMap, private readonly cwd: string) {
    this.dir = dirname(file);
  }

  private problem(pointer: string, message: string, key = false): void {
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
          this.problem(`/steps/${i}`, others.length > 0
            ? `unknown step '${others[0]}'; a step is one of ${ACTION_KEYS.join(', ')}`
            : `a step needs an action: one of ${ACTION_KEYS.join(', ')}`);
        } else if (actions.length > 1) {
          this.problem(`/steps/${i}/${actions[1]}`, `one action per step: '${actions[0]}' and '${actions[1]}' must be separate steps`, true);
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
      if (kinds.length !== 1) this.problem(pointer, kinds.length === 0 ? 'a price source needs one of ticks, file or generator' : `a price source is one of ticks, file or generator, not ${kinds.join(' and ')}`);
      const only: Readonly<Record<string, readonly string[]>> = { ticks: ['ticks', 'instrument'], file: ['file', 'format', 'instrument', 'from', 'to'], generator: ['generator'] };
      const kind = kinds[0];
      if (kinds.length === 1 && kind !== undefined) {
        for (const key of Object.keys(source)) {
          if (!(only[kind] as readonly string[]).includes(key) && (SOURCE_KEYS as readonly string[]).concat(['format', 'instrument', 'from', 'to']).includes(key)) {
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
        this.problem(`${pointer}/${String(params['additionalProperty'])}`, `unknown property '${String(params['additionalProperty'])}'`, true);
        return;
      case 'pattern': {
        const custom = (e.parentSchema as Json | undefined)?.['patternErrorMessage'];
        this.problem(pointer, `${typeof custom === 'string' ? custom : `must match ${String(params['pattern'])}`}, got ${JSON.stringify(e.data)}`);
        return;
      }
      case 'enum':
        this.problem(pointer, `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(e.data)}`);
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
    const rawSources = doc['prices'] === undefined ? [] : Array.isArray(doc['prices']) ? doc['prices'] as Json[] : [doc['prices'] as Json];
    const sourcePointer = (i: number): string => (Array.isArray(doc['prices']) ? `/prices/${i}` : '/prices');

    // The start: given, else the earliest first tick of the sources, else the default.
    let start: Micros | undefined;
    if (typeof config['start'] === 'string') {
      if (isRelativeTime(config['start'])) this.problem('/config/start', 'must be an absolute RFC3339 time (T+ times count from it)');
      else start = this.time(config['start'], '/config/start', undefined);
    }
    if (this.problems.length > 0) this.fail();
    start ??= this.defaultStart(rawSources, sourcePointer);
    if (this.problems.length > 0) this.fail();
    const sources: PriceSourceSpec[] = [];
    rawSources.forEach((raw, i) => {
      const source = this.source(raw, sourcePointer(i), start, seed);
      if (source === undefined) return;
      if (source.kind === 'ticks' && (source.ticks[0]?.time ?? start) < start) this.problem(`${sourcePointer(i)}/ticks/0`, 'the first tick is before config.start');
      if (source.kind === 'generator' && source.start < start) this.problem(`${sourcePointer(i)}/generator/start`, 'the generator starts before config.start');
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
    const steps = this.steps(doc['steps'] as unknown[], start, new Set(vars.keys()), accounts);
    for (const g of goldens) this.checkVariables(g.account, '/golden', new Set(vars.keys()));

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
      const account: { -readonly [K in keyof AccountConfig]: AccountConfig[K] } = { id, currency: (a['currency'] as string | undefined) ?? 'USD' };
      if (a['balance'] !== undefined) account.balance = a['balance'] as string;
      if (a['alias'] !== undefined) account.alias = a['alias'] as string;
      if (a['hedgingEnabled'] !== undefined) account.hedgingEnabled = a['hedgingEnabled'] as boolean;
      if (a['marginRate'] !== undefined) account.marginRate = a['marginRate'] as string;
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

  private time(text: string, pointer: string, start: Micros | undefined): Micros | undefined {
    if (isRelativeTime(text) && start === undefined) {
      this.problem(pointer, 'a T+ time needs config.start (or an earlier absolute time to count from)');
      return undefined;
    }
    const t = parseScenarioTime(text, start);
    if (t === null) this.problem(pointer, `not a valid time: ${text}`);
    return t ?? undefined;
  }

  /** Without config.start: the earliest first tick of the sources (a generator's start), else the default. */
  private defaultStart(rawSources: readonly Json[], sourcePointer: (i: number) => string): Micros {
    let first: Micros | undefined;
    const consider = (t: Micros | undefined): void => {
      if (t !== undefined && (first === undefined || t < first)) first = t;
    };
    rawSources.forEach((raw, i) => {
      const pointer = sourcePointer(i);
      if (Array.isArray(raw['ticks'])) {
        const tick = raw['ticks'][0] as unknown;
        const time = Array.isArray(tick) ? tick[0] : isObject(tick) ? tick['time'] : undefined;
        if (typeof time === 'string') consider(this.time(time, `${pointer}/ticks/0`, undefined));
        else if (tick !== undefined) this.problem(`${pointer}/ticks/0`, 'a tick of a price source needs a time');
      } else if (typeof raw['file'] === 'string') {
        const path = resolve(this.dir, raw['file']);
        if (!existsSync(path)) return; // reported by source()
        const spec: { kind: 'file'; path: string; format?: FeedFormat; instrument?: string; from?: Micros } = { kind: 'file', path };
        if (raw['format'] !== undefined) spec.format = raw['format'] as FeedFormat;
        if (raw['instrument'] !== undefined) spec.instrument = raw['instrument'] as string;
        if (typeof raw['from'] === 'string') {
          const from = this.time(raw['from'], `${pointer}/from`, undefined);
          if (from === undefined) return;
          spec.from = from;
        }
        try {
          consider(firstTickOf(spec)?.time);
        } catch (err) {
          this.problem(`${pointer}/file`, `cannot read the ticks: ${(err as Error).message}`);
        }
      } else if (isObject(raw['generator'])) {
        const text = raw['generator']['start'];
        consider(typeof text === 'string' ? this.time(text, `${pointer}/generator/start`, undefined) : DEFAULT_START);
      }
    });
    return first ?? DEFAULT_START;
  }

  private source(raw: Json, pointer: string, start: Micros, seed: number | string): PriceSourceSpec | undefined {
    if (Object.hasOwn(raw, 'ticks')) {
      const fallback = raw['instrument'] as string | undefined;
      const ticks: TickSpec[] = [];
      const list = raw['ticks'] as unknown[];
      for (let i = 0; i < list.length; i += 1) {
        const p = `${pointer}/ticks/${i}`;
        const tick = this.tick(list[i], p, fallback, start);
        if (tick === undefined) continue;
        if (tick.time === undefined) {
          this.problem(p, 'a tick of a price source needs a time');
          continue;
        }
        const previous = ticks[ticks.length - 1];
        if (previous?.time !== undefined && tick.time < previous.time) this.problem(p, 'ticks must be in time order');
        ticks.push(tick);
      }
      return { kind: 'ticks', ticks };
    }
    if (Object.hasOwn(raw, 'file')) {
      const path = resolve(this.dir, raw['file'] as string);
      if (!existsSync(path)) {
        this.problem(`${pointer}/file`, `tick file not found: ${raw['file'] as string} (looked for ${path})`);
        return undefined;
      }
      const spec: { kind: 'file'; path: string; format?: FeedFormat; instrument?: string; from?: Micros; to?: Micros } = { kind: 'file', path };
      if (raw['format'] !== undefined) spec.format = raw['format'] as FeedFormat;
      if (raw['instrument'] !== undefined) spec.instrument = raw['instrument'] as string;
      for (const key of ['from', 'to'] as const) {
        const text = raw[key];
        if (typeof text !== 'string') continue;
        const t = this.time(text, `${pointer}/${key}`, start);
        if (t !== undefined) spec[key] = t;
      }
      // The scenario begins at its start: earlier ticks of a file are not fed.
      if (spec.from === undefined || spec.from < start) spec.from = start;
      return spec;
    }
    const g = raw['generator'] as Json;
    const startText = g['start'] as string | undefined;
    const genStart = startText === undefined ? start : this.time(startText, `${pointer}/generator/start`, start);
    if (genStart === undefined) return undefined;
    const spec: { -readonly [K in keyof GeneratorSpec]: GeneratorSpec[K] } = {
      kind: 'generator',
      seed: (g['seed'] as number | string | undefined) ?? seed,
      instruments: (g['instruments'] as string[] | undefined) ?? ['EUR_USD'],
      start: genStart,
    };
    if (g['count'] !== undefined) spec.count = g['count'] as number;
    if (typeof g['end'] === 'string') {
      const end = this.time(g['end'], `${pointer}/generator/end`, start);
      if (end !== undefined) spec.end = end;
    }
    if (g['meanIntervalMs'] !== undefined) spec.meanIntervalMicros = Math.round((g['meanIntervalMs'] as number) * 1000);
    return spec;
  }

  /** A tick in object or array form. */
  private tick(raw: unknown, pointer: string, fallbackInstrument: string | undefined, start: Micros): TickSpec | undefined {
    let time: string | undefined;
    let instrument: unknown;
    let bid: unknown;
    let ask: unknown;
    let closeoutBid: unknown;
    let closeoutAsk: unknown;
    if (Array.isArray(raw)) {
      time = raw[0] as string;
      if (raw.length === 4) [, instrument, bid, ask] = raw;
      else [, bid, ask] = raw;
    } else if (isObject(raw)) {
      ({ time, instrument, bid, ask, closeoutBid, closeoutAsk } = raw as { time?: string; instrument?: unknown; bid?: unknown; ask?: unknown; closeoutBid?: unknown; closeoutAsk?: unknown });
    } else {
      return undefined;
    }
    instrument ??= fallbackInstrument;
    if (typeof instrument !== 'string' || !/^[A-Z0-9]{2,10}_[A-Z0-9]{2,10}$/.test(instrument)) {
      this.problem(pointer, instrument === undefined ? 'the tick needs an instrument ([time, instrument, bid, ask], or instrument: on the source)' : `not an instrument name: ${JSON.stringify(instrument)}`);
      return undefined;
    }
    if (typeof bid !== 'number' || typeof ask !== 'number' || !(bid > 0) || !(ask > 0)) {
      this.problem(pointer, 'bid and ask must be positive numbers');
      return undefined;
    }
    if ((closeoutBid === undefined) !== (closeoutAsk === undefined)) {
      this.problem(pointer, 'closeoutBid and closeoutAsk go together');
      return undefined;
    }
    let t: Micros | undefined;
    if (time !== undefined) {
      t = this.time(time, Array.isArray(raw) ? `${pointer}/0` : `${pointer}/time`, start);
      if (t === undefined) return undefined;
    }
    const tick: { -readonly [K in keyof TickSpec]: TickSpec[K] } = { time: t, instrument, bid, ask };
    if (typeof closeoutBid === 'number' && typeof closeoutAsk === 'number') {
      tick.closeoutBid = closeoutBid;
      tick.closeoutAsk = closeoutAsk;
    }
    return tick;
  }

  private goldens(raw: unknown, firstAccount: string): GoldenSpec[] {
    if (raw === undefined) return [];
    const entries: [string, string, string][] = typeof raw === 'string' ? [[firstAccount, raw, '/golden']] : Object.entries(raw as Json).map(([k, v]) => [k, v as string, `/golden/${k}`]);
    return entries.map(([account, file, pointer]) => {
      const path = resolve(this.dir, file);
      return { account, path, display: isAbsolute(file) ? file : relative(this.cwd, path) || path, location: this.map.at(pointer) };
    });
  }

  private checkVariables(value: unknown, pointer: string, defined: ReadonlySet<string>): void {
    for (const ref of variablesIn(value, pointer)) {
      if (!defined.has(ref.name)) this.problem(ref.pointer, `unknown variable \${${ref.name}} (defined: ${[...defined].join(', ')})`);
    }
  }

  private checkExpectation(value: unknown, pointer: string): void {
    for (const found of matchersIn(value, pointer)) {
      if (found.matcher === undefined) {
        this.problem(`${found.pointer}/${found.key ?? ''}`, `unknown matcher '${found.key ?? ''}'; matchers are $any, $id, $time, $decimal, $range, $regex, $absent, $exact, $contains, $length`, true);
        continue;
      }
      const why = checkMatcher(found.matcher);
      if (why !== undefined) this.problem(found.pointer, why);
    }
  }

  private accountRef(raw: unknown, pointer: string, accounts: readonly AccountConfig[]): string | undefined {
    if (raw === undefined) return undefined;
    const id = raw as string;
    if (!id.includes('${') && !accounts.some((a) => a.id === id)) this.problem(pointer, `no account ${id} in config.accounts`);
    return id;
  }

  private steps(raw: readonly unknown[], start: Micros, defined: Set<string>, accounts: readonly AccountConfig[]): Step[] {
    const marks = new Set<string>();
    const streams = new Set<string>();
    let lastStream: string | undefined;
    const steps: Step[] = [];
    const absolute = (text: string): string | undefined => {
      if (!isRelativeTime(text)) return undefined;
      const t = parseScenarioTime(text, start);
      return t === null ? undefined : showTime(t);
    };
    raw.forEach((item, index) => {
      const step = resolveMatcherTimes(item, absolute) as Json;
      const pointer = `/steps/${index}`;
      const base = { index, pointer, location: this.map.at(pointer), name: step['name'] as string | undefined };
      const checkVars = (key: string): void => this.checkVariables(step[key], `${pointer}/${key}`, defined);
      let action: Action | undefined;
      let expectPointer = pointer;
      if (step['advance'] !== undefined) {
        const a = step['advance'];
        const p = `${pointer}/advance`;
        if (a === 'end') action = { kind: 'advanceEnd' };
        else if (typeof a === 'string') {
          const to = this.time(a, p, start);
          if (to !== undefined) action = { kind: 'advanceTo', to };
        } else if (isObject(a)) {
          if (typeof a['to'] === 'string') {
            const to = this.time(a['to'], `${p}/to`, start);
            if (to !== undefined) action = { kind: 'advanceTo', to };
          } else if (typeof a['by'] === 'string') {
            const by = parseDuration(a['by']);
            if (by === null) this.problem(`${p}/by`, 'not a duration');
            else action = { kind: 'advanceBy', by };
          } else if (typeof a['ticks'] === 'number') action = { kind: 'advanceTicks', count: a['ticks'] };
        }
      } else if (step['tick'] !== undefined || step['ticks'] !== undefined) {
        const single = step['tick'] !== undefined;
        const list = single ? [step['tick']] : step['ticks'] as unknown[];
        const ticks: TickSpec[] = [];
        list.forEach((t, i) => {
          const tick = this.tick(t, single ? `${pointer}/tick` : `${pointer}/ticks/${i}`, undefined, start);
          if (tick !== undefined) ticks.push(tick);
        });
        action = { kind: 'ticks', ticks };
      } else if (step['request'] !== undefined) {
        checkVars('request');
        checkVars('expect');
        const r = step['request'] as Json;
        const request: RequestSpec = {
          method: (r['method'] as string | undefined) ?? 'GET',
          path: r['path'] as string,
          query: r['query'] as Record<string, unknown> | undefined,
          token: r['token'] as string | null | undefined,
          headers: (r['headers'] as Record<string, string | null> | undefined) ?? {},
          body: r['body'],
          hasBody: Object.hasOwn(r, 'body'),
          rawBody: r['rawBody'] as string | undefined,
        };
        let expect: ResponseExpectation | undefined;
        if (isObject(step['expect'])) {
          const e = step['expect'];
          this.checkExpectation(e, `${pointer}/expect`);
          expect = { ...e, hasBody: Object.hasOwn(e, 'body') } as ResponseExpectation;
        }
        expectPointer = `${pointer}/expect`;
        const capture = new Map<string, string>();
        if (isObject(step['capture'])) {
          for (const [name, path] of Object.entries(step['capture'])) {
            if (name === 'account' || name === 'token' || /^account\d+$/.test(name)) this.problem(`${pointer}/capture/${name}`, `'${name}' is a built-in variable`, true);
            capture.set(name, path as string);
          }
        }
        action = { kind: 'request', request, expect, capture };
        for (const name of capture.keys()) defined.add(name);
      } else if (step['mark'] !== undefined) {
        const name = step['mark'] as string;
        marks.add(name);
        action = { kind: 'mark', name };
      } else if (step['expectTransactions'] !== undefined) {
        checkVars('expectTransactions');
        const e = step['expectTransactions'];
        const form = Array.isArray(e) ? { transactions: e } as Json : e as Json;
        expectPointer = Array.isArray(e) ? `${pointer}/expectTransactions` : `${pointer}/expectTransactions/transactions`;
        this.checkExpectation(form['transactions'], expectPointer);
        let since: Since | undefined;
        const s = form['since'];
        if (typeof s === 'number' || (typeof s === 'string' && /^\d+$/.test(s))) since = { id: Number(s) };
        else if (typeof s === 'string') {
          if (!marks.has(s)) this.problem(`${pointer}/expectTransactions/since`, `no mark '${s}' before this step${marks.size > 0 ? ` (marks: ${[...marks].join(', ')})` : ''}`);
          since = { mark: s };
        }
        action = {
          kind: 'expectTransactions', since, account: this.accountRef(form['accountID'], `${pointer}/expectTransactions/accountID`, accounts),
          items: (form['transactions'] as unknown[]).map(asTransactionExpectation),
        };
      } else if (step['expectState'] !== undefined) {
        checkVars('expectState');
        const e = step['expectState'] as Json;
        expectPointer = `${pointer}/expectState`;
        const { accountID, ...checks } = e;
        this.checkExpectation(checks, expectPointer);
        action = { kind: 'expectState', account: this.accountRef(accountID, `${pointer}/expectState/accountID`, accounts), checks: checks as StateChecks };
      } else if (step['openStream'] !== undefined) {
        checkVars('openStream');
        const o = typeof step['openStream'] === 'string' ? { name: step['openStream'] } as Json : step['openStream'] as Json;
        const name = o['name'] as string;
        if (streams.has(name)) this.problem(`${pointer}/openStream`, `a stream '${name}' is already open`);
        streams.add(name);
        lastStream = name;
        action = {
          kind: 'openStream', name, account: this.accountRef(o['accountID'], `${pointer}/openStream/accountID`, accounts),
          token: o['token'] as string | undefined, headers: (o['headers'] as Record<string, string | null> | undefined) ?? {}, via: (o['via'] as 'http' | 'engine' | undefined) ?? 'http',
        };
      } else if (step['expectStream'] !== undefined) {
        checkVars('expectStream');
        const e = step['expectStream'];
        const form = Array.isArray(e) ? { lines: e } as Json : e as Json;
        expectPointer = Array.isArray(e) ? `${pointer}/expectStream` : `${pointer}/expectStream/lines`;
        this.checkExpectation(form['lines'], expectPointer);
        const name = (form['name'] as string | undefined) ?? lastStream;
        if (name === undefined || !streams.has(name)) this.problem(`${pointer}/expectStream`, name === undefined ? 'no stream is open (add an openStream step before)' : `no open stream '${name}'`);
        action = { kind: 'expectStream', name: name ?? '', items: (form['lines'] as unknown[]).map(asTransactionExpectation) };
      } else if (step['closeStream'] !== undefined) {
        const name = step['closeStream'] as string;
        if (!streams.has(name)) this.problem(`${pointer}/closeStream`, `no open stream '${name}'`);
        streams.delete(name);
        if (lastStream === name) lastStream = [...streams].pop();
        action = { kind: 'closeStream', name };
      }
      if (action !== undefined) steps.push({ ...base, expectPointer, action });
    });
    return steps;
  }
}

/** A bare type name in a transaction list stands for `{type: NAME}`. */
function asTransactionExpectation(item: unknown): unknown {
  return typeof item === 'string' && /^[A-Z_]+$/.test(item) ? { type: item } : item;
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
    return !pool.some((o) => o !== e && o.keyword !== 'type' && o.keyword !== 'const' && o.keyword !== 'enum' && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)));
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
  return out.filter((e, i) => !(e.keyword === 'type' && out.findIndex((o) => o.keyword === 'type' && o.instancePath === e.instancePath) !== i));
}

