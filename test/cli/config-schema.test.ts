import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serveConfigSchemaJson } from '../../src/cli/config-schema.js';

describe('schema/serve-config.schema.json', () => {
  it('is the TypeBox schema the CLI checks config files with (regenerate: node --import tsx test/cli/write-serve-schema.ts)', () => {
    expect(readFileSync('schema/serve-config.schema.json', 'utf8')).toBe(serveConfigSchemaJson());
  });
});
