import type { ParamValue, StrategyDefinition, StrategyParams } from './strategy.js';
import { RANGE_VALUES_MAX, SWEEP_COMBINATIONS_MAX } from '../domain/limits.js';
import { NUMBER_RE, RANGE_RE, rangeLength } from './param-count.js';
import { candleSpecProblem } from './strategy-candles.js';

export class ParamError extends Error {
  override readonly name = 'ParamError';
}

function typeName(value: ParamValue): 'number' | 'boolean' | 'string' {
  return typeof value as 'number' | 'boolean' | 'string';
}

/** A number's text as a number; one too large for a double (1e400) would become Infinity. */
function finite(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) throw new ParamError(`parameter ${name}: expected a finite number, got ${JSON.stringify(text)}`);
  return value;
}

/** Reads one textual value as the type of the parameter's default. */
export function coerceParam(name: string, text: string, defaultValue: ParamValue): ParamValue {
  const trimmed = text.trim();
  switch (typeName(defaultValue)) {
    case 'number': {
      if (!NUMBER_RE.test(trimmed)) throw new ParamError(`parameter ${name}: expected a number, got ${JSON.stringify(text)}`);
      return finite(name, trimmed);
    }
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (lower === 'true' || lower === 'yes' || lower === '1') return true;
      if (lower === 'false' || lower === 'no' || lower === '0') return false;
      throw new ParamError(`parameter ${name}: expected true or false, got ${JSON.stringify(text)}`);
    }
    case 'string':
      return text;
  }
}

/** A value from a config file (JSON): the default's type, or text read as that type. */
function checkParamValue(name: string, value: unknown, defaultValue: ParamValue): ParamValue {
  if (typeof value === 'string' && typeof defaultValue !== 'string') return coerceParam(name, value, defaultValue);
  if (typeof value !== typeName(defaultValue)) {
    throw new ParamError(`parameter ${name}: expected a ${typeName(defaultValue)}, got ${JSON.stringify(value)}`);
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new ParamError(`parameter ${name}: expected a finite number, got ${value}`);
  return value as ParamValue;
}

/** `start:stop[:step]`, both ends included; step 1 when left out. */
function expandRange(name: string, text: string): number[] | undefined {
  const m = RANGE_RE.exec(text.trim());
  if (m === null) return undefined;
  const [start, stop, step] = [m[1], m[2], m[3] ?? '1'].map((part) => {
    if (!NUMBER_RE.test(part as string))
      throw new ParamError(`parameter ${name}: bad range ${JSON.stringify(text)}; write start:stop:step`);
    return finite(name, part as string);
  }) as [number, number, number];
  if (!(step > 0)) throw new ParamError(`parameter ${name}: the step of ${JSON.stringify(text)} must be positive`);
  if (stop < start) throw new ParamError(`parameter ${name}: the range ${JSON.stringify(text)} ends before it starts`);
  const count = rangeLength(start, stop, step);
  if (count > RANGE_VALUES_MAX)
    throw new ParamError(`parameter ${name}: the range ${JSON.stringify(text)} has ${count} values; at most ${RANGE_VALUES_MAX}`);
  const values: number[] = [];
  // Rounded to 10 decimals so that 0.1:0.3:0.1 gives 0.1, 0.2, 0.3 and not 0.30000000000000004.
  for (let i = 0; i < count; i += 1) values.push(Number((start + i * step).toFixed(10)));
  return values;
}

/**
 * The values of one `--param name=text`: a comma-separated list gives several (a sweep), and for a
 * number parameter `start:stop:step` gives a range. Each value is read as the default's type.
 */
export function parseParamValues(name: string, text: string, defaultValue: ParamValue): ParamValue[] {
  const parts = typeof defaultValue === 'string' ? text.split(',') : text.split(',').map((p) => p.trim());
  const values: ParamValue[] = [];
  for (const part of parts) {
    if (part === '' && parts.length > 1) throw new ParamError(`parameter ${name}: empty value in ${JSON.stringify(text)}`);
    const range = typeof defaultValue === 'number' ? expandRange(name, part) : undefined;
    if (range !== undefined) values.push(...range);
    else values.push(coerceParam(name, part, defaultValue));
  }
  return values;
}

/** `name=value` as given to --param. */
function splitParamArg(arg: string): { name: string; text: string } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new ParamError(`--param expects name=value, got ${JSON.stringify(arg)}`);
  return { name: arg.slice(0, eq).trim(), text: arg.slice(eq + 1) };
}

/** Each swept parameter with its values; a parameter with one value is simply set. */
export type ParamGrid = ReadonlyMap<string, readonly ParamValue[]>;

function checkKnown(definition: StrategyDefinition, name: string): ParamValue {
  const defaults = definition.params as Record<string, ParamValue>;
  if (!Object.prototype.hasOwnProperty.call(defaults, name)) {
    const known = Object.keys(defaults);
    throw new ParamError(
      `strategy ${definition.name} has no parameter ${JSON.stringify(name)}; its parameters: ${known.length === 0 ? '(none)' : known.join(', ')}`,
    );
  }
  return defaults[name] as ParamValue;
}

/**
 * The grid from a config file's `params` object (a value or an array of values per name) and
 * the command line's `--param name=text` arguments (one per name), which replace the config's value of a name.
 */
export function buildParamGrid(
  definition: StrategyDefinition,
  configParams: Readonly<Record<string, unknown>> | undefined,
  args: readonly string[],
): Map<string, ParamValue[]> {
  const grid = new Map<string, ParamValue[]>();
  for (const [name, value] of Object.entries(configParams ?? {})) {
    const defaultValue = checkKnown(definition, name);
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) throw new ParamError(`parameter ${name}: the config gives an empty list`);
    grid.set(
      name,
      list.map((v: unknown) => checkParamValue(name, v, defaultValue)),
    );
  }
  // A name given twice is a mistake either way: the last value silently winning, or an intended sweep.
  const given = new Map<string, string>();
  for (const arg of args) {
    const { name, text } = splitParamArg(arg);
    const earlier = given.get(name);
    if (earlier !== undefined)
      throw new ParamError(`--param ${name} is given twice; for a sweep give its values in one: --param ${name}=${earlier},${text}`);
    given.set(name, text);
    grid.set(name, parseParamValues(name, text, checkKnown(definition, name)));
  }
  return grid;
}

/**
 * Every combination of the grid over the definition's defaults. Parameters vary in the order of the
 * definition's defaults, the first slowest (nested loops), so combination i is the same in any
 * process; duplicate values are kept as given.
 */
export function expandGrid<P extends StrategyParams>(definition: StrategyDefinition<P>, grid: ParamGrid): P[] {
  const names = Object.keys(definition.params).filter((name) => grid.has(name));
  let total = 1;
  for (const name of names) total *= (grid.get(name) as readonly ParamValue[]).length;
  if (total > SWEEP_COMBINATIONS_MAX)
    throw new ParamError(`the parameter grid has ${total} combinations; at most ${SWEEP_COMBINATIONS_MAX}`);
  const out: P[] = [];
  const index = names.map(() => 0);
  for (let n = 0; n < total; n += 1) {
    const params: Record<string, ParamValue> = { ...definition.params };
    names.forEach((name, i) => {
      params[name] = (grid.get(name) as readonly ParamValue[])[index[i] as number] as ParamValue;
    });
    out.push(params as P);
    for (let i = names.length - 1; i >= 0; i -= 1) {
      index[i] = (index[i] as number) + 1;
      if ((index[i] as number) < (grid.get(names[i] as string) as readonly ParamValue[]).length) break;
      index[i] = 0;
    }
  }
  return out;
}

/** The names that take more than one value: the axes of a sweep. */
export function sweptNames(definition: StrategyDefinition, grid: ParamGrid): string[] {
  return Object.keys(definition.params).filter((name) => (grid.get(name)?.length ?? 0) > 1);
}

/** Defaults with overrides, checked against the definition (library use: values must have the default's type). */
export function resolveParams<P extends StrategyParams>(
  definition: StrategyDefinition<P>,
  overrides: Readonly<Record<string, unknown>> = {},
): P {
  const params: Record<string, ParamValue> = { ...definition.params };
  for (const [name, value] of Object.entries(overrides)) {
    const defaultValue = checkKnown(definition as StrategyDefinition, name);
    if (typeof value !== typeof defaultValue || (typeof value === 'number' && !Number.isFinite(value))) {
      throw new ParamError(`parameter ${name}: expected a ${typeName(defaultValue)}, got ${JSON.stringify(value)}`);
    }
    params[name] = value as ParamValue;
  }
  return params as P;
}

/** Checks the shape of a loaded module's default export. */
export function checkDefinition(value: unknown, source: string): StrategyDefinition {
  const def = value as Partial<StrategyDefinition> | null | undefined;
  const problems: string[] = [];
  if (typeof def !== 'object' || def === null) problems.push('the default export must be an object { name, params, create }');
  else {
    if (typeof def.name !== 'string' || def.name === '') problems.push('name must be a non-empty string');
    if (typeof def.params !== 'object' || def.params === null || Array.isArray(def.params))
      problems.push('params must be an object of defaults');
    else {
      for (const [name, v] of Object.entries(def.params)) {
        if (!(typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
          problems.push(`params.${name} must be a number, string or boolean`);
        }
      }
    }
    if (typeof def.create !== 'function') problems.push('create(params) must be a function returning the hooks');
    if (def.candles !== undefined) {
      if (!Array.isArray(def.candles)) problems.push('candles must be a list of INSTRUMENT:GRANULARITY strings');
      else
        for (const spec of def.candles as unknown[]) {
          const problem = candleSpecProblem(spec);
          if (problem !== null) problems.push(`candles: ${problem}`);
        }
    }
  }
  if (problems.length > 0) throw new Error(`${source} is not a strategy: ${problems.join('; ')}`);
  return def as StrategyDefinition;
}
