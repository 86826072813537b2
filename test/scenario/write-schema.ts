/**
 * Writes schema/scenario.schema.json from the TypeBox schema scenario files are checked with
 * (src/scenario/schema.ts): node --import tsx test/scenario/write-schema.ts
 */
import { writeFileSync } from 'node:fs';
import { scenarioSchemaJson } from '../../src/scenario/schema.js';

const target = new URL('../../schema/scenario.schema.json', import.meta.url);
writeFileSync(target, scenarioSchemaJson());
process.stdout.write(`written ${target.pathname}\n`);
