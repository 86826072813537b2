import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countRuns } from './param-count.js';
import { buildParamGrid, expandGrid } from './params.js';
import type { StrategyDefinition } from './strategy.js';

const definition = {
  name: 'counted',
  params: { fast: 10, slow: 30, units: 1000, label: 'a' },
  create: () => ({}),
} as unknown as StrategyDefinition;

/** One number parameter's text as --param takes it: a value, a list, or ranges among the values. */
const numberText = fc
  .array(
    fc.oneof(
      fc.integer({ min: -50, max: 50 }).map(String),
      fc
        .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 4 }))
        .map(([start, span, step]) => `${start}:${start + span}:${step}`),
      fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 5 })).map(([start, span]) => `${start}:${start + span}`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(','));

describe('countRuns (property)', () => {
  it('counts the runs the grid of number parameters gives, from the command line and a config file', () => {
    fc.assert(
      fc.property(
        fc.record({ fast: fc.option(numberText, { nil: undefined }), slow: fc.option(numberText, { nil: undefined }) }),
        fc.option(fc.array(fc.integer({ min: 100, max: 900 }), { minLength: 1, maxLength: 4 }), { nil: undefined }),
        (cli, units) => {
          const args = Object.entries(cli).flatMap(([name, text]) => (text === undefined ? [] : [`${name}=${text}`]));
          const config = units === undefined ? undefined : { units };
          const runs = expandGrid(definition, buildParamGrid(definition, config, args)).length;
          expect(countRuns(config, args)).toBe(runs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a single run without swept parameters; a string list counts its values; the command line replaces the config', () => {
    expect(countRuns(undefined, [])).toBe(1);
    expect(countRuns({ units: 5000 }, ['fast=12'])).toBe(1);
    expect(countRuns(undefined, ['label=x,y,z'])).toBe(3);
    expect(countRuns({ fast: [5, 10, 20] }, ['fast=7', 'slow=40:60:10'])).toBe(3);
    // Malformed ranges count as one value: the grid then reports them.
    expect(countRuns(undefined, ['fast=9:1', 'slow=1:5:0'])).toBe(1);
  });
});
