/**
 * Comparing what a scenario expects with what the simulator answered: plain values strictly,
 * objects partially, lists item by item, matchers (matchers.ts) by their rule. Every difference
 * is collected with its path, for the report.
 */
import { Decimal } from '../domain/decimal.js';
import { parseDateTime } from '../domain/time.js';
import { isObject } from './json.js';
import { asMatcher, decimalText, show, type Matcher, type MatcherName } from './matchers.js';

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
