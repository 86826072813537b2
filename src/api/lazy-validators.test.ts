import { describe, expect, it } from 'vitest';
import { lazyValidatorFactory } from './lazy-validators.js';

type Compile = (route: unknown) => ((data: unknown) => boolean) & { errors?: unknown };
const OPTIONS = { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false }, plugins: [] };

describe('lazyValidatorFactory', () => {
  it('compiles nothing until the first validation, then judges as ajv does and exposes its errors', () => {
    const factory = lazyValidatorFactory() as unknown as (ext: unknown, options: unknown) => Compile;
    const compile = factory({}, OPTIONS);
    // An invalid schema would throw at compile time: it does not until a request uses it.
    const broken = compile({ schema: { type: 'no-such-type' }, method: 'GET', url: '/x', httpPart: 'querystring' });
    expect(() => broken({})).toThrow();
    const validate = compile({
      schema: { type: 'object', properties: { units: { type: 'string', pattern: '^-?\\d+$' } }, required: ['units'] },
      method: 'POST',
      url: '/x',
      httpPart: 'body',
    });
    expect(validate({ units: '100' })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(validate({ units: 'x' })).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ instancePath: '/units', keyword: 'pattern' })]);
    expect(validate({})).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ keyword: 'required' })]);
  });
});
