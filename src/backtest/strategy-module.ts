/**
 * Imports a strategy module. TypeScript is compiled with the smallest transform that works:
 * esbuild's transform of the one file, kept in a cache by content hash, so a second run of the same
 * strategy imports plain JavaScript without starting a compiler at all. tsx's loader (a hooks
 * thread and a transform of every module it sees) cost about 130 ms of each backtest's start-up.
 *
 * A single-file transform works when the compiled file imports nothing but Node's built-ins: its
 * type imports are erased, and it does not use `import.meta` or dynamic imports. Anything else (a
 * helper module beside it, a package) goes through tsx, which resolves imports as Node does from
 * the strategy's own folder.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Part of the cache key: change it with the transform's options below. */
const TRANSFORM = 'esm node20 inline-sourcemap 1';

const TS_RE = /\.(?:[cm]?ts|tsx)$/i;

/** True for the file names compiled before import (TypeScript without a build step). */
export function isTypeScriptFile(file: string): boolean {
  // A URL may carry a query (tsx's tsImport adds one) or a fragment.
  return TS_RE.test(file.replace(/[?#].*$/s, ''));
}

/** Static imports and re-exports, as esbuild prints them. */
const STATIC_IMPORT_RE = /(?:^|[;\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g;

/** True when the compiled file can run from anywhere: built-in imports only, no import.meta, no dynamic loading. */
export function isSelfContained(code: string): boolean {
  if (/\bimport\s*\(|\bimport\.meta\b|\brequire\s*\(/.test(code)) return false;
  for (const m of code.matchAll(STATIC_IMPORT_RE)) if (!(m[1] ?? '').startsWith('node:')) return false;
  return true;
}

/** Where compiled strategies are kept: ~/.cache/v20sim/strategies, else the system's temporary folder. */
function cacheDirs(cacheDir: string | undefined): string[] {
  if (cacheDir !== undefined) return [cacheDir];
  return [path.join(homedir(), '.cache', 'v20sim', 'strategies'), path.join(tmpdir(), `v20sim-strategies-${process.getuid?.() ?? 'user'}`)];
}

/** Writes `code` to `file` whole: a reader sees the old file or the new one, never a part. */
function writeWhole(file: string, code: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, code);
  renameSync(temp, file);
}

/** The cached compiled file for `source` (compiling it on a miss), or null if it needs tsx. */
async function compiled(file: string, source: string, cacheDir: string | undefined): Promise<string | null> {
  const loader = /x$/i.test(file) ? 'tsx' : 'ts';
  // esbuild's version from its package.json: a cache hit does not load the compiler's API.
  const esbuild = (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version;
  const key = createHash('sha256').update(`${TRANSFORM}\0${esbuild}\0${loader}\0${file}\0${source}`).digest('hex');
  const name = `${key.slice(0, 32)}.mjs`;
  for (const dir of cacheDirs(cacheDir)) if (existsSync(path.join(dir, name))) return path.join(dir, name);
  const { transform } = await import('esbuild');
  const out = await transform(source, {
    loader,
    format: 'esm',
    target: 'node20',
    sourcefile: file,
    // Errors and stack traces point at the strategy's own lines.
    sourcemap: 'inline',
  });
  if (!isSelfContained(out.code)) return null;
  for (const dir of cacheDirs(cacheDir)) {
    try {
      mkdirSync(dir, { recursive: true });
      writeWhole(path.join(dir, name), out.code);
      return path.join(dir, name);
    } catch {
      // Not writable: try the next folder.
    }
  }
  return null;
}

/**
 * Imports a module by file URL: TypeScript through the cached transform or tsx, JavaScript with
 * import(). `cacheDir` replaces the default cache folders (tests).
 */
export async function importModule(url: string, cacheDir?: string): Promise<unknown> {
  if (!isTypeScriptFile(url)) return import(url) as Promise<unknown>;
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  const js = await compiled(file, source, cacheDir);
  if (js !== null) {
    // The compiled file carries its source map inline; Node applies it to stack traces only when
    // asked, and only to modules loaded after: the strategy's errors then name its own lines.
    process.setSourceMapsEnabled(true);
    return import(pathToFileURL(js).href) as Promise<unknown>;
  }
  const { tsImport } = (await import('tsx/esm/api')) as { tsImport: (specifier: string, parentURL: string) => Promise<unknown> };
  return tsImport(url, import.meta.url);
}
