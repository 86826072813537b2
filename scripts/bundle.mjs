#!/usr/bin/env node
/**
 * Bundles the CLI into a few ES modules in dist/bundle/ (run by `npm run build`). Loading the
 * compiled dist/ tree meant resolving and compiling several hundred small modules (v20sim's own,
 * TypeBox's, Fastify's, RxJS's) on every start; one bundle with lazily loaded chunks per command
 * starts in about half the time. Entry names are flat so every `new URL('../../x', import.meta.url)`
 * in the sources (package.json, schema/, examples/) and every worker module beside its pool
 * (`./sweep-worker.js`, `./tick-thread-worker.js`, `./worker.js`, the queue's `./cell-thread.js`) resolves from dist/bundle/ as it does from dist/<layer>/.
 *
 *   node scripts/bundle.mjs [outdir]
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.resolve(root, process.argv[2] ?? 'dist/bundle');

// Chunk names carry content hashes: clear the folder so chunks of earlier builds do not pile up.
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: [
    'src/cli/main.ts',
    'src/backtest/sweep-worker.ts',
    'src/backtest/tick-thread-worker.ts',
    'src/scenario/worker.ts',
    'src/queue/cell-thread.ts',
  ],
  entryNames: '[name]',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Packages that load their own files or threads by path, or ship a native binary, stay in
  // node_modules and load from there.
  external: ['tsx', 'esbuild', 'tinypool', 'bullmq', 'ioredis', 'playwright-core', 'uplot'],
  // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __v20simRequire } from 'node:module'; const require = __v20simRequire(import.meta.url);" },
  // RxJS's CommonJS build (its "node" export) is one 8,700-line module evaluated whole; its ES build
  // ("es2015", marked free of side effects) lets the bundle keep only the operators the code uses.
  alias: { rxjs: './node_modules/rxjs/dist/esm/index.js' },
  logLevel: 'warning',
});
