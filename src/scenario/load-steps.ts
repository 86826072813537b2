/** The steps of a scenario file, resolved to actions: times made absolute, variables, marks and streams checked in order. */
import type { AccountConfig } from '../account/state.js';
import type { Micros } from '../domain/time.js';
import { isObject, type Json } from './json.js';
import type { LoadContext } from './load-context.js';
import { tickSpec } from './load-prices.js';
import { checkMatcher, matchersIn, resolveMatcherTimes } from './matchers.js';
import type { Action, RequestSpec, ResponseExpectation, Since, StateChecks, Step, TickSpec } from './model.js';
import { isRelativeTime, parseDuration, parseScenarioTime, showTime } from './time.js';
import { variablesIn } from './vars.js';

export function checkVariables(ctx: LoadContext, value: unknown, pointer: string, defined: ReadonlySet<string>): void {
  for (const ref of variablesIn(value, pointer)) {
    if (!defined.has(ref.name)) ctx.problem(ref.pointer, `unknown variable \${${ref.name}} (defined: ${[...defined].join(', ')})`);
  }
}

function checkExpectation(ctx: LoadContext, value: unknown, pointer: string): void {
  for (const found of matchersIn(value, pointer)) {
    if (found.matcher === undefined) {
      ctx.problem(
        `${found.pointer}/${found.key ?? ''}`,
        `unknown matcher '${found.key ?? ''}'; matchers are $any, $id, $time, $decimal, $range, $regex, $absent, $exact, $contains, $length`,
        true,
      );
      continue;
    }
    const why = checkMatcher(found.matcher);
    if (why !== undefined) ctx.problem(found.pointer, why);
  }
}

function accountRef(ctx: LoadContext, raw: unknown, pointer: string, accounts: readonly AccountConfig[]): string | undefined {
  if (raw === undefined) return undefined;
  const id = raw as string;
  if (!id.includes('${') && !accounts.some((a) => a.id === id)) ctx.problem(pointer, `no account ${id} in config.accounts`);
  return id;
}

/** A bare type name in a transaction list stands for `{type: NAME}`. */
function asTransactionExpectation(item: unknown): unknown {
  return typeof item === 'string' && /^[A-Z_]+$/.test(item) ? { type: item } : item;
}

/** What the steps so far have set up: variables, marks, open streams. */
interface Scope {
  readonly start: Micros;
  readonly defined: Set<string>;
  readonly accounts: readonly AccountConfig[];
  readonly marks: Set<string>;
  readonly streams: Set<string>;
  lastStream: string | undefined;
}

interface Resolved {
  readonly action: Action | undefined;
  /** Where the step's expectation sits (failures point there); the step itself by default. */
  readonly expectPointer?: string;
}

function advance(ctx: LoadContext, scope: Scope, a: unknown, p: string): Resolved {
  const { start } = scope;
  if (a === 'end') return { action: { kind: 'advanceEnd' } };
  if (typeof a === 'string') {
    const to = ctx.time(a, p, start);
    return { action: to === undefined ? undefined : { kind: 'advanceTo', to } };
  }
  if (!isObject(a)) return { action: undefined };
  if (typeof a['to'] === 'string') {
    const to = ctx.time(a['to'], `${p}/to`, start);
    return { action: to === undefined ? undefined : { kind: 'advanceTo', to } };
  }
  if (typeof a['by'] === 'string') {
    const by = parseDuration(a['by']);
    if (by === null) ctx.problem(`${p}/by`, 'not a duration');
    return { action: by === null ? undefined : { kind: 'advanceBy', by } };
  }
  return { action: typeof a['ticks'] === 'number' ? { kind: 'advanceTicks', count: a['ticks'] } : undefined };
}

function ticks(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  const single = step['tick'] !== undefined;
  const list = single ? [step['tick']] : (step['ticks'] as unknown[]);
  const out: TickSpec[] = [];
  list.forEach((t, i) => {
    const tick = tickSpec(ctx, t, single ? `${pointer}/tick` : `${pointer}/ticks/${i}`, undefined, scope.start);
    if (tick !== undefined) out.push(tick);
  });
  return { action: { kind: 'ticks', ticks: out } };
}

function request(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  checkVariables(ctx, step['request'], `${pointer}/request`, scope.defined);
  checkVariables(ctx, step['expect'], `${pointer}/expect`, scope.defined);
  const r = step['request'] as Json;
  const spec: RequestSpec = {
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
    checkExpectation(ctx, e, `${pointer}/expect`);
    expect = { ...e, hasBody: Object.hasOwn(e, 'body') } as ResponseExpectation;
  }
  const capture = new Map<string, string>();
  if (isObject(step['capture'])) {
    for (const [name, path] of Object.entries(step['capture'])) {
      if (name === 'account' || name === 'token' || /^account\d+$/.test(name))
        ctx.problem(`${pointer}/capture/${name}`, `'${name}' is a built-in variable`, true);
      capture.set(name, path as string);
    }
  }
  for (const name of capture.keys()) scope.defined.add(name);
  return { action: { kind: 'request', request: spec, expect, capture }, expectPointer: `${pointer}/expect` };
}

/**
 * An expected list written bare (`expectStream: [...]`) or under `listKey` beside other keys
 * (`expectStream: {name, lines: [...]}`), its variables and matchers checked: the object form, the
 * items (bare type names made objects) and the pointer their mismatches point into.
 */
function expectedList(
  ctx: LoadContext,
  scope: Scope,
  step: Json,
  pointer: string,
  key: string,
  listKey: string,
): { form: Json; items: unknown[]; expectPointer: string } {
  checkVariables(ctx, step[key], `${pointer}/${key}`, scope.defined);
  const e = step[key];
  const form = Array.isArray(e) ? ({ [listKey]: e } as Json) : (e as Json);
  const expectPointer = Array.isArray(e) ? `${pointer}/${key}` : `${pointer}/${key}/${listKey}`;
  checkExpectation(ctx, form[listKey], expectPointer);
  return { form, items: (form[listKey] as unknown[]).map(asTransactionExpectation), expectPointer };
}

function expectTransactions(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  const { form, items, expectPointer } = expectedList(ctx, scope, step, pointer, 'expectTransactions', 'transactions');
  let since: Since | undefined;
  const s = form['since'];
  if (typeof s === 'number' || (typeof s === 'string' && /^\d+$/.test(s))) since = { id: Number(s) };
  else if (typeof s === 'string') {
    const marks = scope.marks;
    if (!marks.has(s))
      ctx.problem(
        `${pointer}/expectTransactions/since`,
        `no mark '${s}' before this step${marks.size > 0 ? ` (marks: ${[...marks].join(', ')})` : ''}`,
      );
    since = { mark: s };
  }
  return {
    action: {
      kind: 'expectTransactions',
      since,
      account: accountRef(ctx, form['accountID'], `${pointer}/expectTransactions/accountID`, scope.accounts),
      items,
    },
    expectPointer,
  };
}

function expectState(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  checkVariables(ctx, step['expectState'], `${pointer}/expectState`, scope.defined);
  const { accountID, ...checks } = step['expectState'] as Json;
  const expectPointer = `${pointer}/expectState`;
  checkExpectation(ctx, checks, expectPointer);
  return {
    action: {
      kind: 'expectState',
      account: accountRef(ctx, accountID, `${pointer}/expectState/accountID`, scope.accounts),
      checks: checks as StateChecks,
    },
    expectPointer,
  };
}

function openStream(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  checkVariables(ctx, step['openStream'], `${pointer}/openStream`, scope.defined);
  const o = typeof step['openStream'] === 'string' ? ({ name: step['openStream'] } as Json) : (step['openStream'] as Json);
  const name = o['name'] as string;
  if (scope.streams.has(name)) ctx.problem(`${pointer}/openStream`, `a stream '${name}' is already open`);
  scope.streams.add(name);
  scope.lastStream = name;
  return {
    action: {
      kind: 'openStream',
      name,
      account: accountRef(ctx, o['accountID'], `${pointer}/openStream/accountID`, scope.accounts),
      token: o['token'] as string | undefined,
      headers: (o['headers'] as Record<string, string | null> | undefined) ?? {},
      via: (o['via'] as 'http' | 'engine' | undefined) ?? 'http',
    },
  };
}

function expectStream(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  const { form, items, expectPointer } = expectedList(ctx, scope, step, pointer, 'expectStream', 'lines');
  const name = (form['name'] as string | undefined) ?? scope.lastStream;
  if (name === undefined || !scope.streams.has(name))
    ctx.problem(
      `${pointer}/expectStream`,
      name === undefined ? 'no stream is open (add an openStream step before)' : `no open stream '${name}'`,
    );
  return {
    action: { kind: 'expectStream', name: name ?? '', items },
    expectPointer,
  };
}

function closeStream(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  const name = step['closeStream'] as string;
  if (!scope.streams.has(name)) ctx.problem(`${pointer}/closeStream`, `no open stream '${name}'`);
  scope.streams.delete(name);
  if (scope.lastStream === name) scope.lastStream = [...scope.streams].pop();
  return { action: { kind: 'closeStream', name } };
}

function resolveAction(ctx: LoadContext, scope: Scope, step: Json, pointer: string): Resolved {
  if (step['advance'] !== undefined) return advance(ctx, scope, step['advance'], `${pointer}/advance`);
  if (step['tick'] !== undefined || step['ticks'] !== undefined) return ticks(ctx, scope, step, pointer);
  if (step['request'] !== undefined) return request(ctx, scope, step, pointer);
  if (step['mark'] !== undefined) {
    const name = step['mark'] as string;
    scope.marks.add(name);
    return { action: { kind: 'mark', name } };
  }
  if (step['expectTransactions'] !== undefined) return expectTransactions(ctx, scope, step, pointer);
  if (step['expectState'] !== undefined) return expectState(ctx, scope, step, pointer);
  if (step['openStream'] !== undefined) return openStream(ctx, scope, step, pointer);
  if (step['expectStream'] !== undefined) return expectStream(ctx, scope, step, pointer);
  if (step['closeStream'] !== undefined) return closeStream(ctx, scope, step, pointer);
  return { action: undefined };
}

/** The steps in order; `defined` (the variables) grows with each request's captures. */
export function resolveSteps(
  ctx: LoadContext,
  raw: readonly unknown[],
  start: Micros,
  defined: Set<string>,
  accounts: readonly AccountConfig[],
): Step[] {
  const scope: Scope = { start, defined, accounts, marks: new Set(), streams: new Set(), lastStream: undefined };
  const absolute = (text: string): string | undefined => {
    if (!isRelativeTime(text)) return undefined;
    const t = parseScenarioTime(text, start);
    return t === null ? undefined : showTime(t);
  };
  const steps: Step[] = [];
  raw.forEach((item, index) => {
    const step = resolveMatcherTimes(item, absolute) as Json;
    const pointer = `/steps/${index}`;
    const { action, expectPointer } = resolveAction(ctx, scope, step, pointer);
    if (action !== undefined)
      steps.push({
        index,
        pointer,
        location: ctx.map.at(pointer),
        name: step['name'] as string | undefined,
        expectPointer: expectPointer ?? pointer,
        action,
      });
  });
  return steps;
}
