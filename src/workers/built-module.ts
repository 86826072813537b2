/**
 * The compiled twin of a TypeScript source module: `<root>/src/a/b.ts` -> `<root>/dist/a/b.js`,
 * when `npm run build` made it after the last change to any source. A worker thread started on it
 * loads plain JavaScript in a few hundred milliseconds, where loading the sources through tsx takes
 * about a second per worker. The currency check is bin/v20sim.js's: no .ts file under src/ newer
 * than the build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  const built = [...parts.slice(0, at), 'dist', ...parts.slice(at + 1)].join(path.sep).replace(/\.ts$/, '.js');
  if (!existsSync(built)) return undefined;
  let newest = newestBySrc.get(src);
  if (newest === undefined) {
    newest = newestSource(src);
    newestBySrc.set(src, newest);
  }
  return newest <= statSync(built).mtimeMs ? pathToFileURL(built) : undefined;
}
