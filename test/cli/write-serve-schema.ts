/**
 * Writes schema/serve-config.schema.json from the TypeBox schema the CLI checks config files with
 * (src/cli/config-schema.ts): node --import tsx test/cli/write-serve-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { serveConfigSchemaJson } from '../../src/cli/config-schema.js';

const target = new URL('../../schema/serve-config.schema.json', import.meta.url);
writeFileSync(target, serveConfigSchemaJson());
process.stdout.write(`written ${target.pathname}\n`);
