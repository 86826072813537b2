/**
 * Freezes a value and everything it holds, so code handed it (a strategy, a reader of a cached
 * view) can read it but never change what the account, its log or a cache shares. A frozen object
 * is taken as frozen all the way down and not walked again: objects many values share (a fill's
 * quote, its conversion factors) are walked once. A transaction of a known shape is frozen through
 * its shape's freezer instead (domain/transaction-freeze.ts), which visits only the members that
 * can hold an object.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) deepFreeze(value[i]);
  } else {
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
