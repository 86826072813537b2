import { Decimal } from '../domain/decimal.js';
import { parseDateTime } from '../domain/time.js';

/**
 * Expected values with room for what the author does not fix. A matcher is a one-key object
 * whose key names it (`{"$decimal": "1.1"}`); YAML files write it as a tag (`!decimal 1.1`).
 *
 * | YAML                 | JSON                      | matches                                            |
 * |----------------------|---------------------------|----------------------------------------------------|
 * | `!any`               | `{"$any": true}`          | any value that is present                          |
 * | `!id`                | `{"$id": true}`           | a v20 ID: a string of digits                       |
 * | `!time` / `!time T`  | `{"$time": true \| "T"}`   | any DateTime / the same instant in any format      |
 * | `!decimal 1.1`       | `{"$decimal": "1.1"}`     | a decimal equal in value ("1.10000"); empty: any   |
 * | `!range [a, b]`      | `{"$range": [a, b]}`      | a number or decimal string in [a, b]; null: open   |
 * | `!regex '^x'`        | `{"$regex": "^x"}`        | a string the regular expression finds a match in   |
 * | `!absent`            | `{"$absent": true}`       | nothing: the key is not there                      |
 * | `!exact {...}`       | `{"$exact": {...}}`       | objects inside may not have unlisted keys          |
 * | `!contains [...]`    | `{"$contains": [...]}`    | an array with an item matching each listed one     |
 * | `!length n`          | `{"$length": n}`          | an array or string of length n                     |
 */
export type MatcherName = 'any' | 'id' | 'time' | 'decimal' | 'range' | 'regex' | 'absent' | 'exact' | 'contains' | 'length';

export const MATCHER_NAMES: readonly MatcherName[] = [
  'any',
  'id',
  'time',
  'decimal',
  'range',
  'regex',
  'absent',
  'exact',
  'contains',
  'length',
];
export const MATCHER_TAGS: ReadonlySet<string> = new Set(MATCHER_NAMES.map((n) => `!${n}`));
const MATCHER_KEYS: ReadonlySet<string> = new Set(MATCHER_NAMES.map((n) => `$${n}`));

export interface Matcher {
  readonly name: MatcherName;
  readonly arg: unknown;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A one-key object `{"$name": arg}` with a known name, as a Matcher. */
export function asMatcher(value: unknown): Matcher | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const key = keys[0] as string;
  if (!MATCHER_KEYS.has(key)) return undefined;
  return { name: key.slice(1) as MatcherName, arg: value[key] };
}

const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function decimalText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && DECIMAL_RE.test(value)) return value;
  return undefined;
}

/** The JSON form of a tagged YAML node; throws on an argument the matcher cannot use. */
export function matcherFromTag(tag: string, value: unknown): Json {
  const name = tag.slice(1) as MatcherName;
  const make = (arg: unknown): Json => ({ [`$${name}`]: arg });
  switch (name) {
    case 'any':
    case 'id':
    case 'absent':
      if (value !== null && value !== '') throw new Error(`${tag} takes no value`);
      return make(true);
    case 'time':
      if (value === null || value === '') return make(true);
      return make(String(value));
    case 'length':
      return make(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);
    case 'contains':
    case 'decimal':
    case 'exact':
    case 'range':
    case 'regex':
      return make(value);
  }
}

/** Why a matcher's argument is unusable, or undefined when it is fine. Checked when a file loads. */
export function checkMatcher(m: Matcher): string | undefined {
  switch (m.name) {
    case 'any':
    case 'id':
    case 'absent':
      return m.arg === true ? undefined : `$${m.name} takes true`;
    case 'time':
      if (m.arg === true) return undefined;
      return typeof m.arg === 'string' && (m.arg.includes('${') || parseDateTime(m.arg) !== null)
        ? undefined
        : `$time takes true, a DateTime or T+<duration>, got ${show(m.arg)}`;
    case 'decimal':
      if (m.arg === null || m.arg === true) return undefined;
      return decimalText(m.arg) !== undefined || (typeof m.arg === 'string' && m.arg.includes('${'))
        ? undefined
        : `$decimal takes a decimal number, got ${show(m.arg)}`;
    case 'range': {
      if (!Array.isArray(m.arg) || m.arg.length !== 2) return `$range takes [min, max], got ${show(m.arg)}`;
      for (const bound of m.arg)
        if (bound !== null && decimalText(bound) === undefined) return `$range bounds must be numbers or null, got ${show(bound)}`;
      return undefined;
    }
    case 'regex':
      if (typeof m.arg !== 'string') return `$regex takes a string, got ${show(m.arg)}`;
      try {
        new RegExp(m.arg, 'u');
        return undefined;
      } catch (err) {
        return `$regex: ${(err as Error).message}`;
      }
    case 'exact':
      return undefined;
    case 'contains':
      return Array.isArray(m.arg) ? undefined : `$contains takes a list, got ${show(m.arg)}`;
    case 'length':
      return typeof m.arg === 'number' && Number.isInteger(m.arg) && m.arg >= 0
        ? undefined
        : `$length takes a whole number, got ${show(m.arg)}`;
  }
}

/** Every matcher inside a value, with its pointer, for load-time checks. */
export function* matchersIn(value: unknown, pointer = ''): Generator<{ pointer: string; matcher: Matcher | undefined; key?: string }> {
  const m = asMatcher(value);
  if (m !== undefined) {
    yield { pointer, matcher: m };
    if (m.name === 'exact' || m.name === 'contains') yield* matchersIn(m.arg, `${pointer}/$${m.name}`);
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) yield* matchersIn(value[i], `${pointer}/${i}`);
  } else if (isObject(value)) {
    const keys = Object.keys(value);
    for (const key of keys) {
      if (/^\$[A-Za-z]/.test(key) && keys.length === 1) yield { pointer, matcher: undefined, key };
      yield* matchersIn(value[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
}

export function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const m = asMatcher(value);
  if (m !== undefined) {
    if (m.arg === true) return `!${m.name}`;
    if (m.name === 'decimal' && m.arg === null) return '!decimal';
    return `!${m.name} ${JSON.stringify(m.arg, replacer)}`;
  }
  const text = JSON.stringify(value, replacer);
  return text === undefined ? String(value) : text;
}

function replacer(_key: string, value: unknown): unknown {
  const m = asMatcher(value);
  if (m === undefined) return value;
  return m.arg === true ? `!${m.name}` : `!${m.name} ${JSON.stringify(m.arg)}`;
}

/** One difference between an expected and an actual value, at a path inside them. */
export interface Mismatch {
  readonly path: readonly (string | number)[];
  readonly expected: string;
  readonly actual: string;
  readonly note?: string;
}

/** Most differences collected from one comparison; the first ones tell the story. */
export const MISMATCHES_MAX = 50;

/** Compares, collecting every difference (up to MISMATCHES_MAX). */
export function compare(expected: unknown, actual: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  walk(expected, actual, [], false, out);
  return out;
}

export function matches(expected: unknown, actual: unknown): boolean {
  return compare(expected, actual).length === 0;
}

function toDecimal(value: unknown): Decimal | undefined {
  const text = decimalText(value);
  return text === undefined ? undefined : new Decimal(text);
}

function push(out: Mismatch[], mismatch: Mismatch): void {
  if (out.length < MISMATCHES_MAX) out.push(mismatch);
}

function walk(expected: unknown, actual: unknown, path: (string | number)[], exact: boolean, out: Mismatch[]): void {
  if (out.length >= MISMATCHES_MAX) return;
  const m = asMatcher(expected);
  if (m !== undefined) {
    matchOne(m, actual, path, exact, out);
    return;
  }
  if (actual === undefined) {
    push(out, { path, expected: show(expected), actual: show(actual) });
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      push(out, { path, expected: show(expected), actual: show(actual), note: 'expected a list' });
      return;
    }
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i += 1) walk(expected[i], actual[i], [...path, i], exact, out);
    if (expected.length !== actual.length) {
      push(out, {
        path,
        expected: `${expected.length} item(s)`,
        actual: `${actual.length} item(s)`,
        note:
          actual.length > expected.length
            ? `unexpected: ${actual.slice(expected.length).map(brief).join(', ')}`
            : `missing: ${expected.slice(actual.length).map(brief).join(', ')}`,
      });
    }
    return;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) {
      push(out, { path, expected: show(expected), actual: show(actual), note: 'expected an object' });
      return;
    }
    for (const key of Object.keys(expected))
      walk(expected[key], Object.hasOwn(actual, key) ? actual[key] : undefined, [...path, key], exact, out);
    if (exact) {
      for (const key of Object.keys(actual)) {
        if (!Object.hasOwn(expected, key))
          push(out, { path: [...path, key], expected: '(absent)', actual: show(actual[key]), note: 'not allowed by !exact' });
      }
    }
    return;
  }
  if (expected === actual) return;
  let note: string | undefined;
  if (typeof expected === 'number' && typeof actual === 'string' && toDecimal(actual)?.equals(expected) === true) {
    note = `v20 sends decimals as strings: write "${actual}" or !decimal ${expected}`;
  } else if (
    typeof expected === 'string' &&
    typeof actual === 'string' &&
    toDecimal(expected) !== undefined &&
    toDecimal(actual)?.equals(toDecimal(expected) as Decimal) === true
  ) {
    note = `equal in value: !decimal ${expected} compares numerically`;
  }
  push(out, { path, expected: show(expected), actual: show(actual), ...(note === undefined ? {} : { note }) });
}

/** A short form of a list item for "unexpected"/"missing" notes: a transaction shows id and type. */
function brief(value: unknown): string {
  if (isObject(value) && asMatcher(value) === undefined) {
    const id = value['id'];
    const type = value['type'];
    if (typeof type === 'string') return typeof id === 'string' ? `${id} ${type}` : type;
  }
  const text = show(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What a matcher of one value says of it: a match, or a mismatch with an optional note for the reader. */
type Verdict = 'match' | { readonly note?: string };

const MISMATCH: Verdict = {};

function verdict(ok: boolean): Verdict {
  return ok ? 'match' : MISMATCH;
}

/** The matchers that look at one value alone: every one but exact and contains. */
type ValueMatcherName = Exclude<MatcherName, 'exact' | 'contains'>;

function judgeValue(name: ValueMatcherName, arg: unknown, actual: unknown): Verdict {
  switch (name) {
    case 'absent':
      return verdict(actual === undefined);
    case 'any':
      return verdict(actual !== undefined);
    case 'id':
      return verdict(typeof actual === 'string' && /^[1-9]\d*$/.test(actual));
    case 'time': {
      const t = typeof actual === 'string' ? parseDateTime(actual) : null;
      if (t === null) return MISMATCH;
      return arg !== true && parseDateTime(String(arg)) !== t ? { note: 'a different instant' } : 'match';
    }
    case 'decimal': {
      const a = toDecimal(actual);
      return verdict(a !== undefined && (arg === null || arg === true || a.equals(toDecimal(arg) as Decimal)));
    }
    case 'range': {
      const a = toDecimal(actual);
      const [lo, hi] = arg as [unknown, unknown];
      return verdict(
        a !== undefined &&
          (lo === null || !a.lessThan(toDecimal(lo) as Decimal)) &&
          (hi === null || !a.greaterThan(toDecimal(hi) as Decimal)),
      );
    }
    case 'regex':
      return verdict(typeof actual === 'string' && new RegExp(arg as string, 'u').test(actual));
    case 'length': {
      const length = Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined;
      if (length === arg) return 'match';
      return { note: length === undefined ? 'not a list or string' : `length ${length}` };
    }
  }
}

/** `$contains`: each listed item matches a different item of the list, in any order. */
function matchContains(
  items: readonly unknown[],
  actual: readonly unknown[],
  path: (string | number)[],
  exact: boolean,
  out: Mismatch[],
): void {
  const used = new Set<number>();
  for (const item of items) {
    let found = -1;
    for (let i = 0; i < actual.length; i += 1) {
      if (used.has(i)) continue;
      const probe: Mismatch[] = [];
      walk(item, actual[i], [], exact, probe);
      if (probe.length === 0) {
        found = i;
        break;
      }
    }
    if (found < 0)
      push(out, {
        path,
        expected: `an item matching ${show(item)}`,
        actual: `${actual.length} item(s): ${actual.map(brief).join(', ')}`,
      });
    else used.add(found);
  }
}

/** A mismatch shown as the matcher's JSON form. */
function matcherMismatch(m: Matcher, actual: unknown, path: (string | number)[], out: Mismatch[], note: string | undefined): void {
  push(out, { path, expected: show({ [`$${m.name}`]: m.arg }), actual: show(actual), ...(note === undefined ? {} : { note }) });
}

function matchOne(m: Matcher, actual: unknown, path: (string | number)[], exact: boolean, out: Mismatch[]): void {
  if (m.name === 'exact') {
    walk(m.arg, actual, path, true, out);
  } else if (m.name === 'contains') {
    if (Array.isArray(actual)) matchContains(m.arg as unknown[], actual, path, exact, out);
    else matcherMismatch(m, actual, path, out, 'expected a list');
  } else {
    const v = judgeValue(m.name, m.arg, actual);
    if (v !== 'match') matcherMismatch(m, actual, path, out, v.note);
  }
}

/** A copy with `$time` arguments written relative to the start (`T+5s`) made absolute. */
export function resolveMatcherTimes(value: unknown, resolveTime: (text: string) => string | undefined): unknown {
  const m = asMatcher(value);
  if (m !== undefined) {
    if (m.name === 'time' && typeof m.arg === 'string') return { $time: resolveTime(m.arg) ?? m.arg };
    if (m.name === 'exact' || m.name === 'contains') return { [`$${m.name}`]: resolveMatcherTimes(m.arg, resolveTime) };
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveMatcherTimes(v, resolveTime));
  if (isObject(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: resolveMatcherTimes(v, resolveTime), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** `a.b[2].c` for reports. */
export function formatPath(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) text += text === '' ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}
