/**
 * `${name}` in scenario strings. A string that is exactly one reference takes the variable's value
 * with its type (a captured object stays an object); otherwise values are spliced in as text.
 * `$${` is a literal `${`.
 */
export type Vars = ReadonlyMap<string, unknown>;

const REF_RE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_RE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

export class UnknownVariableError extends Error {
  constructor(readonly variable: string) {
    super(`unknown variable \${${variable}}`);
    this.name = 'UnknownVariableError';
  }
}

function lookup(vars: Vars, name: string): unknown {
  if (!vars.has(name)) throw new UnknownVariableError(name);
  return vars.get(name);
}

export function interpolateString(text: string, vars: Vars): unknown {
  if (!text.includes('${')) return text;
  const whole = WHOLE_RE.exec(text);
  if (whole !== null) return lookup(vars, whole[1] as string);
  return text.replace(REF_RE, (_all, escaped: string, name: string) => {
    if (escaped === '$') return `\${${name}}`;
    const value = lookup(vars, name);
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** A deep copy with every string (and object key) interpolated. */
export function interpolate(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') return interpolateString(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = k.includes('${') ? String(interpolateString(k, vars)) : k;
      Object.defineProperty(out, key, { value: interpolate(v, vars), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** Every variable a value refers to, with the pointer of the string that does. */
export function* variablesIn(value: unknown, pointer = ''): Generator<{ name: string; pointer: string }> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(REF_RE)) if (m[1] !== '$') yield { name: m[2] as string, pointer };
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) yield* variablesIn(value[i], `${pointer}/${i}`);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const child = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      yield* variablesIn(k, child);
      yield* variablesIn(v, child);
    }
  }
}
