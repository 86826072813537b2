import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioSchemaJson } from '../../src/scenario/schema.js';

describe('schema/scenario.schema.json', () => {
  it('is the TypeBox schema scenario files are checked with (regenerate: node --import tsx test/scenario/write-schema.ts)', () => {
    expect(readFileSync('schema/scenario.schema.json', 'utf8')).toBe(scenarioSchemaJson());
  });
});
