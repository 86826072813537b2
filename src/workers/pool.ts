/**
 * Worker threads for the shell's parallel work (scenario files, sweep runs), on tinypool. A task is
 * plain data in and plain data out, so a result does not depend on the thread that computed it.
 */
import type { TransferListItem } from 'node:worker_threads';
import type { Tinypool } from 'tinypool';
import { builtModule } from './built-module.js';

export interface ModulePool<Task, Result> {
  /** `transfer`: objects the task moves to the worker (a MessagePort in it, say) instead of copying. */
  run(task: Task, transfer?: readonly TransferListItem[]): Promise<Result>;
  destroy(): Promise<void>;
}

/**
 * The module tinypool's workers load. From the built package that is the compiled module itself.
 * From the TypeScript sources (tsx, vitest) it is the compiled twin in dist/ when that is current
 * (built-module.ts). Without one, a worker cannot load a .ts file on Node 20 (an `--import tsx` in
 * the worker's execArgv is ignored), so the workers load a small module that registers tsx and
 * forwards the one exported function to the real module (about a second more per worker).
 */
function workerModule(module: URL, exportName: string): URL {
  if (!module.pathname.endsWith('.ts')) return module;
  const built = builtModule(module);
  if (built !== undefined) return built;
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = [
    `const ready = import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); });`,
    `export async function ${exportName}(task) { return (await ready).${exportName}(task); }`,
  ].join('\n');
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/** Whether a worker of `module` would start from the TypeScript sources through tsx (no current dist/ twin). */
export function startsFromSources(module: URL): boolean {
  return module.pathname.endsWith('.ts') && builtModule(module) === undefined;
}

/**
 * A pool of up to `threads` workers running `exportName(task)` of `module` (a file URL beside the
 * caller). tinypool is imported when the pool is made, not with this module: a single backtest
 * loads the sweep code but never starts a thread.
 */
export function modulePool<Task, Result>(module: URL, exportName: string, threads: number): ModulePool<Task, Result> {
  if (!/^[A-Za-z_$][\w$]*$/.test(exportName)) throw new Error(`not an export name: ${exportName}`);
  const pool: Promise<Tinypool> = import('tinypool').then(
    ({ Tinypool }) =>
      new Tinypool({
        filename: workerModule(module, exportName),
        name: exportName,
        // Every worker starts now and stays until destroy(), keeping its loaded modules warm between tasks.
        minThreads: Math.max(1, threads),
        maxThreads: Math.max(1, threads),
      }),
  );
  // A pool that fails to start fails its run() callers; it is not an unhandled rejection when none come.
  pool.catch(() => undefined);
  return {
    run: async (task, transfer) => (await pool).run(task, transfer === undefined ? {} : { transferList: [...transfer] }) as Promise<Result>,
    destroy: async () => (await pool).destroy(),
  };
}

/** The process's warm pools, by module, export and size (see warmModulePool). */
const warm = new Map<string, ModulePool<unknown, unknown>>();

/**
 * A pool like modulePool's, kept for the process and handed to the next caller asking for the same
 * module, export and number of threads, so its workers start (and load their modules) once. Its
 * `destroy()` only releases it: idle tinypool workers are unref'd and keep no process alive.
 */
export function warmModulePool<Task, Result>(module: URL, exportName: string, threads: number): ModulePool<Task, Result> {
  const size = Math.max(1, threads);
  const key = `${module.href}#${exportName}#${size}`;
  let pool = warm.get(key);
  if (pool === undefined) {
    pool = modulePool<unknown, unknown>(module, exportName, size);
    warm.set(key, pool);
  }
  const kept = pool;
  return { run: (task, transfer) => kept.run(task, transfer) as Promise<Result>, destroy: () => Promise.resolve() };
}

/** Ends every warm pool's workers (tests and embedding programs that want their threads back). */
export async function closeWarmPools(): Promise<void> {
  const pools = [...warm.values()];
  warm.clear();
  await Promise.all(pools.map((pool) => pool.destroy()));
}
