import { parseDateTime } from '../domain/time.js';
import { isObject, type Json } from './json.js';

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

/** A number or decimal string as decimal text; undefined for anything else. */
export function decimalText(value: unknown): string | undefined {
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

/** An expected or actual value as a report shows it: JSON, with matchers in their YAML tag form. */
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
