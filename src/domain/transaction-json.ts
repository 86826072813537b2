import type { Transaction } from './transactions.js';

/**
 * A transaction as one JSON line: byte for byte what JSON.stringify(tx) prints. JSON.stringify
 * walks a thirty-field fill in several microseconds; the account core, which has every value of
 * the transactions a fill writes at hand as strings it formatted itself, writes their line with
 * one template in a fraction of that, at the moment it emits the transaction (rememberJson).
 * The line is kept beside the transaction for the journal, which serializes each batch right
 * after it is decided; any other transaction (older ones, any read back from a journal, any type
 * the core does not template) goes to JSON.stringify.
 *
 * The templates live next to the object literals they mirror (account/fill.ts); the tests
 * compare every line with JSON.stringify on random sessions (account/transaction-lines.prop.test.ts).
 */

/** How many of the latest templated transactions are kept (a batch writes a handful). */
const RECENT_SIZE = 64;
const recentTx: (object | undefined)[] = new Array<object | undefined>(RECENT_SIZE).fill(undefined);
const recentLine: string[] = new Array<string>(RECENT_SIZE).fill('');
let recentNext = 0;

/** Keeps `line` as the JSON of `tx`, which the caller has just built and will not change. */
export function rememberJson(tx: object, line: string): void {
  // A template builds a rope of small strings; one flat copy keeps the stored line compact.
  void line.charCodeAt(0);
  recentTx[recentNext] = tx;
  recentLine[recentNext] = line;
  recentNext = (recentNext + 1) % RECENT_SIZE;
}

/** The transaction as one JSON line (what a journal stores and a stream sends). */
export function transactionJson(tx: Transaction): string {
  // Newest first: the journal serializes a batch right after it is decided.
  let i = recentNext;
  for (let n = 0; n < RECENT_SIZE; n += 1) {
    i = i === 0 ? RECENT_SIZE - 1 : i - 1;
    if (recentTx[i] === tx) return recentLine[i] as string;
  }
  return JSON.stringify(tx);
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

/** Any value as JSON.stringify prints it inside an object (client objects, values as sent). */
export function jsonValue(v: unknown): string {
  return JSON.stringify(v) as string;
}

/**
 * `,"key":value` as JSON.stringify prints a member of an object: nothing when the value is
 * undefined (or a function or symbol, which JSON leaves out too). `key` is a plain identifier.
 */
export function jsonMember(key: string, v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return `,"${key}":${jsonString(v)}`;
  const json = JSON.stringify(v) as string | undefined;
  return json === undefined ? '' : `,"${key}":${json}`;
}
