/** Helpers for the scenario schema (schema.ts, schema-steps.ts): the JSON Schema forms TypeBox has no builder for. */
import { Type, type TSchema } from 'typebox';

type Options = Record<string, unknown>;

/** A reference to one of the schema's definitions. */
export function ref(name: string, options: Options = {}): TSchema {
  return Type.Ref(`#/definitions/${name}`, options);
}

/** Exactly one of the schemas (TypeBox's unions are anyOf). */
export function oneOf(schemas: readonly TSchema[], options: Options = {}): TSchema {
  return Type.Unsafe({ oneOf: schemas, ...options });
}

/** A string matching `pattern`; `message` words a mismatch ("must be ...") in place of ajv's own. */
export function patterned(pattern: string, message: string, options: Options = {}): TSchema {
  return Type.String({ pattern, patternErrorMessage: message, ...options });
}

export function enumOf(values: readonly unknown[], options: Options = {}): TSchema {
  return Type.Unsafe({ enum: values, ...options });
}

export function constOf(value: unknown, options: Options = {}): TSchema {
  return Type.Unsafe({ const: value, ...options });
}

/** A value of any of the JSON types. */
export function types(names: readonly string[], options: Options = {}): TSchema {
  return Type.Unsafe({ type: names, ...options });
}

/** The object has the property (for if/not conditions). */
export function requires(name: string): TSchema {
  return Type.Unsafe({ required: [name] });
}
