#!/usr/bin/env node
// The v20sim command. Runs the built CLI (dist/) when present, else the TypeScript source through
// tsx (a development checkout where `npm run build` has not run).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
