import { deepFreeze } from './deep-freeze.js';
import { shapeMembers, type ArrayShape, type Member, type ObjectShape } from './shape.js';
import { objectFreezer, type Freezer } from './transaction-freeze.js';
import type { Transaction } from './transactions.js';

/**
 * A transaction as one JSON line: byte for byte what JSON.stringify(tx) prints. JSON.stringify
 * walks a thirty-field fill in several microseconds; a serializer generated from the
 * transaction's shape (domain/transaction-shapes.ts) writes the same line in a fraction of that.
 * The code that builds a transaction in a shape's member order marks it with that shape
 * (shaped()); the journal and the streams print a marked transaction with its shape's serializer
 * and anything else (older transactions, any read back from a journal, any body built in an order
 * of its own) with JSON.stringify.
 *
 * A shape prints its members in its own order, so it may only mark bodies built in exactly that
 * order; transaction-lines.prop.test.ts compares every line with JSON.stringify on random sessions.
 *
 * fast-json-stringify compiles the same kind of function from JSON Schema, but it escapes every
 * string and re-checks every value's type, which made the fill benchmark measurably slower than
 * the hand-written lines this replaces; the generator here knows which members the core formatted
 * itself ('digits') and prints those as they are.
 */

export type { ArrayShape, Member, ObjectShape } from './shape.js';

/** A shape's serializer, and the freezer of objects of that shape (domain/transaction-freeze.ts). */
export interface TransactionSerializer {
  (tx: object): string;
  readonly freeze: Freezer;
}

const LINE: unique symbol = Symbol('v20sim.transactionLine');

/** A constructor that hands back the object it is given: a subclass's private field lands on that object. */
class Carrier {
  constructor(body: object) {
    return body as Carrier;
  }
}

/**
 * The serializer mark of a shaped body: a private field, which JSON.stringify, spreads, Object.keys
 * and equality checks do not see (as they would not see a non-enumerable symbol), and which V8 adds
 * like any other property; Object.defineProperty went through the runtime, about 0.25 µs on every
 * transaction.
 */
class SerializerMark extends Carrier {
  readonly #serialize: TransactionSerializer;

  private constructor(body: object, serialize: TransactionSerializer) {
    super(body);
    this.#serialize = serialize;
  }

  static mark(body: object, serialize: TransactionSerializer): void {
    new SerializerMark(body, serialize);
  }

  static of(tx: object): TransactionSerializer | undefined {
    return #serialize in tx ? tx.#serialize : undefined;
  }
}

/**
 * A string as JSON prints it: quoted as is when nothing in it needs escaping (the common case
 * for prices, IDs and reasons), through JSON.stringify otherwise.
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** A string through jsonString (its common case needs no escaping), anything else through JSON.stringify. */
function textJson(v: unknown): string | undefined {
  return typeof v === 'string' ? jsonString(v) : (JSON.stringify(v) as string | undefined);
}

/** A finite number is printed as its own text (what JSON.stringify prints, without the call); anything else through JSON.stringify. */
function numberJson(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? `${v}` : (JSON.stringify(v) as string | undefined);
}

/** A piece of a member's text: fixed text, or an expression over the object `o`. */
type Part = { readonly literal: string } | { readonly code: string };

/** The parts printing member `key` of `o`; nested shapes become functions of their own in `subs`. */
function valueParts(key: string, member: Member, subs: ((v: unknown) => string)[]): Part[] {
  if (member === 'digits') return [{ literal: '"' }, { code: `o.${key}` }, { literal: '"' }];
  if (member === 'text' || member === 'asSent') return [{ code: `text(o.${key})` }];
  if (member === 'number') return [{ code: `num(o.${key})` }];
  subs.push('array' in member ? arrayFunction(member) : objectFunction(member));
  return [{ code: `(o.${key} === null ? 'null' : subs[${subs.length - 1}](o.${key}))` }];
}

/** One concatenation of the parts, neighbouring fixed texts joined into one literal. */
function expression(parts: readonly Part[]): string {
  const out: string[] = [];
  let literal = '';
  for (const part of parts) {
    if ('literal' in part) {
      literal += part.literal;
      continue;
    }
    if (literal !== '') out.push(JSON.stringify(literal));
    literal = '';
    out.push(part.code);
  }
  if (literal !== '') out.push(JSON.stringify(literal));
  return out.join(' + ');
}

/**
 * The body of a function printing an object of `shape` held in `o`, as a hand-written template
 * would: a run of members always present is one concatenation; an optional member is appended
 * only when it is not undefined (and, for a value as sent, when JSON prints it at all).
 */
function objectCode(shape: ObjectShape, subs: ((v: unknown) => string)[]): string {
  const optional = new Set(shape.optional ?? []);
  // A shared object printed once already carries its line; the first print leaves it there.
  const lines = shape.shared === true ? ['const line = o[LINE] ?? frozenLine(o);', 'if (line !== undefined) return line;'] : [];
  lines.push("let j = '';", 'let s;');
  let run: Part[] = [];
  const flush = (): void => {
    if (run.length !== 0) lines.push(`j += ${expression(run)};`);
    run = [];
  };
  let first = true;
  for (const [key, member] of shapeMembers(shape)) {
    const prefix = `${first ? '{' : ','}"${key}":`;
    if (!optional.has(key)) {
      run.push({ literal: prefix }, ...valueParts(key, member, subs));
    } else if (first) {
      throw new Error(`the first member of a shape must always be present: ${key}`);
    } else {
      flush();
      lines.push(
        member === 'asSent'
          ? `if (o.${key} !== undefined && (s = text(o.${key})) !== undefined) j += ${JSON.stringify(prefix)} + s;`
          : `if (o.${key} !== undefined) j += ${expression([{ literal: prefix }, ...valueParts(key, member, subs)])};`,
      );
    }
    first = false;
  }
  run.push({ literal: '}' });
  flush();
  lines.push(shape.shared === true ? 'return keep(o, j);' : 'return j;');
  return lines.join('\n');
}

function objectFunction(shape: ObjectShape): (v: unknown) => string {
  const subs: ((v: unknown) => string)[] = [];
  const code = objectCode(shape, subs);
  // A generated function: member reads by name, as fast as a hand-written template.
  const make = new Function('text', 'num', 'subs', 'LINE', 'keep', 'frozenLine', `return function serialize(o) {\n${code}\n};`) as (
    text: (v: unknown) => string | undefined,
    num: (v: unknown) => string | undefined,
    subs: ((v: unknown) => string)[],
    line: symbol,
    keep: (o: object, j: string) => string,
    frozenLine: (o: object) => string | undefined,
  ) => (v: unknown) => string;
  return make(textJson, numberJson, subs, LINE, keepLine, frozenLine);
}

/**
 * The lines of shared objects that were frozen before their first print (a backtest freezes every
 * transaction it hands a strategy, backtest/run-journal.ts), which cannot carry their own.
 */
const FROZEN_LINES = new WeakMap<object, string>();

function frozenLine(value: object): string | undefined {
  return FROZEN_LINES.get(value);
}

/**
 * Leaves `line` on a shared object as its JSON (a non-enumerable mark; beside it for a frozen
 * object). Flattened first: a rope of small strings would be kept as long as the object.
 */
function keepLine(value: object, line: string): string {
  void line.charCodeAt(0);
  if (Object.isExtensible(value)) Object.defineProperty(value, LINE, { value: line });
  else FROZEN_LINES.set(value, line);
  return line;
}

function arrayFunction(shape: ArrayShape): (v: unknown) => string {
  const item = objectFunction(shape.array);
  return (v) => {
    const items = v as readonly unknown[];
    let j = '[';
    for (let i = 0; i < items.length; i += 1)
      j += (i === 0 ? '' : ',') + (items[i] === null || items[i] === undefined ? 'null' : item(items[i]));
    return `${j}]`;
  };
}

/** Compiles a shape once (at module load: the result is a pure function). */
export function compileShape(shape: ObjectShape): TransactionSerializer {
  return Object.assign(objectFunction(shape), { freeze: objectFreezer(shape) });
}

/**
 * Marks a body as built in the member order of the shape `serialize` was compiled from (once per
 * body). JSON.stringify, spreads and equality checks do not see the mark (SerializerMark).
 */
export function shaped<T extends object>(body: T, serialize: TransactionSerializer): T {
  SerializerMark.mark(body, serialize);
  return body;
}

/** The JSON of a body marked by shaped(), byte for byte JSON.stringify's; undefined for any other value. */
export function shapedJson(value: object): string | undefined {
  const serialize = SerializerMark.of(value);
  return serialize === undefined ? undefined : serialize(value);
}

/** Freezes a transaction and everything it holds: through its shape's freezer when it has one. */
export function freezeTransaction<T extends object>(tx: T): T {
  const serialize = SerializerMark.of(tx);
  if (serialize === undefined) deepFreeze(tx);
  else serialize.freeze(tx);
  return tx;
}

/** The transaction as one JSON line (what a journal stores and a stream sends). */
export function transactionJson(tx: Transaction): string {
  const serialize = SerializerMark.of(tx);
  if (serialize !== undefined) {
    const line = serialize(tx);
    // The serializer builds a rope of small strings; reading a character flattens it into one
    // compact string, which is what a journal keeps (a rope of sixty pieces per line costs the
    // garbage collector dearly).
    void line.charCodeAt(0);
    return line;
  }
  return JSON.stringify(tx);
}
