/**
 * The built twin of a TypeScript source module, when `npm run build` made it after the last change
 * to any source: the bundle's entry `<root>/dist/bundle/b.js` (scripts/bundle.mjs bundles each
 * worker module under its own name, beside the CLI, so pools find their workers there), else the
 * compiled `<root>/dist/a/b.js`. A worker thread started on the bundle loads in well under 100 ms,
 * on the compiled tree in a few hundred, where the sources through tsx take about a second. The
 * currency check is bin/v20sim.js's: no .ts file under src/ newer than the build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The module `name` in the folder of `from` (a module's import.meta.url), in `from`'s language:
 * `name.ts` beside a TypeScript source, `name.js` beside built JavaScript. A pool's worker module.
 */
export function siblingModule(name: string, from: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

/** The newest modification time of the .ts files under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/** Per source folder: the newest source's time, walked once per process (a sweep asks for every worker). */
const newestBySrc = new Map<string, number>();

/**
 * The built JavaScript of `module` (a file URL ending in .ts inside a `src` folder), or undefined
 * when there is none or it is older than a source file.
 */
export function builtModule(module: URL): URL | undefined {
  if (module.protocol !== 'file:' || !module.pathname.endsWith('.ts')) return undefined;
  const file = fileURLToPath(module);
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('src');
  if (at < 0) return undefined;
  const src = parts.slice(0, at + 1).join(path.sep);
  const dist = [...parts.slice(0, at), 'dist'].join(path.sep);
  const bundled = path.join(dist, 'bundle', path.basename(file).replace(/\.ts$/, '.js'));
  const compiled = path.join(dist, ...parts.slice(at + 1)).replace(/\.ts$/, '.js');
  const built = existsSync(bundled) ? bundled : compiled;
  if (!existsSync(built)) return undefined;
  let newest = newestBySrc.get(src);
  if (newest === undefined) {
    newest = newestSource(src);
    newestBySrc.set(src, newest);
  }
  return newest <= statSync(built).mtimeMs ? pathToFileURL(built) : undefined;
}
