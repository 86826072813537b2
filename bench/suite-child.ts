/**
 * Runs one suite of bench/suites.ts in this process and writes its rows as JSON to the file named
 * second: `node --expose-gc --import tsx bench/suite-child.ts fills OUT.json` (bench/run.ts starts
 * one per suite). A value that is not a number (a skipped case) is written as null.
 */
import { writeFileSync } from 'node:fs';
import { SUITES } from './suites.js';

const [name, out] = process.argv.slice(2);
const load = SUITES.find(([n]) => n === name)?.[1];
if (load === undefined || out === undefined) {
  process.stderr.write(`usage: suite-child.ts SUITE OUT.json (suites: ${SUITES.map(([n]) => n).join(', ')})\n`);
  process.exit(2);
}
const rows = await (await load())();
writeFileSync(out, JSON.stringify(rows.map((r) => ({ ...r, value: Number.isNaN(r.value) ? null : r.value }))));
