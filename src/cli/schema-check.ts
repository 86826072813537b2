/**
 * Checks a document against a JSON Schema with ajv and words the first fault as the config checks
 * do: the field ("accounts[0].id", "instruments[2].financing.longRate") and why. A schema node
 * says why in its `errorMessage` ("{value}" = the value found).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';

export interface Fault {
  readonly field: string;
  readonly why: string;
}

/** The value as a message shows it: JSON, cut at 60 characters. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** "/accounts/0/id" as "accounts[0].id". */
function fieldOf(segments: readonly string[]): string {
  return segments.reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`), '');
}

function segmentsOf(error: ErrorObject): string[] {
  const path =
    error.instancePath === ''
      ? []
      : error.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties') path.push(String((error.params as { additionalProperty: string }).additionalProperty));
  if (error.keyword === 'required') path.push(String((error.params as { missingProperty: string }).missingProperty));
  return path;
}

function faultOf(error: ErrorObject, unknownField: (segments: readonly string[]) => string): Fault {
  const segments = segmentsOf(error);
  const field = fieldOf(segments);
  if (error.keyword === 'additionalProperties') return { field, why: unknownField(segments) };
  if (error.keyword === 'required') return { field, why: 'is required' };
  const message = (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
  if (typeof message === 'string') return { field, why: message.replace('{value}', describeValue(error.data)) };
  return { field, why: `${error.message ?? 'is invalid'}, got ${describeValue(error.data)}` };
}

/** Errors that name their field: unknown or missing fields, and nodes with an errorMessage. */
function isWorded(error: ErrorObject): boolean {
  return (
    error.keyword === 'additionalProperties' ||
    error.keyword === 'required' ||
    typeof (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage === 'string'
  );
}

/**
 * A checker for `schema`: the fault, or null when the document is valid. Of the errors ajv reports
 * for the first failing field (a union reports each branch), the deepest worded one (the last of equals: a union comes after its branches) is the most
 * precise: {"token": "has space"} fails as tokens[0].token, not as "not a string" at tokens[0].
 */
export function schemaChecker(
  schema: TSchema,
  unknownField: (segments: readonly string[]) => string = () => 'unknown field',
): (doc: unknown) => Fault | null {
  // Compiled on the first check, not when the module loads: a run without a config file never
  // pays ajv's compile (about 70 ms of serve's start-up for the config schema).
  let validate: ValidateFunction | undefined;
  return (doc) => {
    if (validate === undefined) {
      const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, strictTypes: false });
      ajv.addKeyword('errorMessage');
      validate = ajv.compile(schema);
    }
    if (validate(doc)) return null;
    const errors = validate.errors ?? [];
    let best: ErrorObject | undefined;
    for (const error of errors) {
      if (!isWorded(error)) continue;
      if (best === undefined || segmentsOf(error).length >= segmentsOf(best).length) best = error;
    }
    const chosen = best ?? errors[0];
    return chosen === undefined ? { field: '', why: 'is invalid' } : faultOf(chosen, unknownField);
  };
}
