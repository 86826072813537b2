#!/usr/bin/env node
// The v20sim command. Runs the built CLI when present and current (the bundle in dist/bundle/,
// which starts fastest, else the compiled tree in dist/cli/), else the TypeScript source through
// tsx: a development checkout where `npm run build` has not run, or whose sources changed since
// (an installed package ships no src/, so it always runs the build).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest modification time of the .ts files under `dir`. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

const bundle = new URL('../dist/bundle/main.js', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
const built = existsSync(fileURLToPath(bundle)) ? bundle : compiled;
const src = fileURLToPath(new URL('../src', import.meta.url));
const current = existsSync(fileURLToPath(built)) && (!existsSync(src) || newestSource(src) <= statSync(fileURLToPath(built)).mtimeMs);
if (current) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
