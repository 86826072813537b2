import { deepFreeze } from './deep-freeze.js';
import { shapeMembers, type ArrayShape, type Member, type ObjectShape } from './shape.js';

/**
 * Freezing a transaction of a known shape (domain/transaction-shapes.ts) all the way down, as
 * deepFreeze would, but only through the members that can hold an object: a nested shape, an array
 * of them, or a value as a client sent it. deepFreeze walks every member of every object with one
 * function that sees every shape, which cost about half a microsecond a transaction; a function
 * generated per shape reads its few object members by name.
 */
export type Freezer = (o: object) => void;

function memberFreezer(member: Member): Freezer | undefined {
  if (member === 'digits' || member === 'text' || member === 'number') return undefined;
  if (member === 'asSent') return deepFreeze;
  return 'array' in member ? arrayFreezer(member) : objectFreezer(member);
}

function arrayFreezer(shape: ArrayShape): Freezer {
  const item = objectFreezer(shape.array);
  return (o) => {
    const items = o as readonly unknown[];
    Object.freeze(items);
    for (let i = 0; i < items.length; i += 1) {
      const v = items[i];
      if (typeof v === 'object' && v !== null) item(v);
    }
  };
}

/** The freezer of objects of `shape`; a shared one (a quote many fills hold) is frozen once. */
export function objectFreezer(shape: ObjectShape): Freezer {
  const subs: Freezer[] = [];
  const lines: string[] = shape.shared === true ? ['if (Object.isFrozen(o)) return;'] : [];
  lines.push('Object.freeze(o);', 'let v;');
  for (const [key, member] of shapeMembers(shape)) {
    const freezer = memberFreezer(member);
    if (freezer === undefined) continue;
    subs.push(freezer);
    lines.push(`v = o.${key}; if (typeof v === 'object' && v !== null) subs[${subs.length - 1}](v);`);
  }
  const make = new Function('subs', `return function freeze(o) {\n${lines.join('\n')}\n};`) as (subs: Freezer[]) => Freezer;
  return make(subs);
}
