/**
 * The shape of the objects the account core builds (domain/transaction-shapes.ts): which members
 * an object has, in what order, and what each holds. A shape compiles to a serializer
 * (transaction-json.ts) and a freezer (transaction-freeze.ts).
 */

/**
 * How one member prints:
 * - 'digits': a string the core formatted itself from numbers or IDs (sign, digits, point): quoted as is;
 *   (only for members that are always such a string: nothing checks it, as a template would not);
 * - 'text': a string the core holds, escaped as JSON.stringify escapes it;
 * - 'asSent': any value as a client sent it, printed by JSON.stringify (left out when JSON leaves it out);
 * - 'number': a number;
 * - an object shape, or an array of objects of one shape.
 */
export type Member = 'digits' | 'text' | 'asSent' | 'number' | ObjectShape | ArrayShape;

/**
 * Members in print order (the order the code that builds the object writes them). Every member
 * is always present unless `optional` names it; the first member is never optional.
 */
export interface ObjectShape {
  readonly object: Readonly<Record<string, Member>>;
  readonly optional?: readonly string[];
  /**
   * Objects many transactions share and nobody changes (a fill's quote, its conversion factors):
   * the first print is kept on the object and the later ones reuse it. Printed only when a line
   * is asked for, so a run that never prints a transaction never prints them either.
   */
  readonly shared?: boolean;
}

export interface ArrayShape {
  readonly array: ObjectShape;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A shape's members in order. Code generated from a shape reads each member by name (`o.price`),
 * so a name must be an identifier.
 */
export function shapeMembers(shape: ObjectShape): [string, Member][] {
  const members = Object.entries(shape.object);
  for (const [key] of members) if (!IDENTIFIER.test(key)) throw new Error(`shape member names must be identifiers: ${key}`);
  return members;
}
