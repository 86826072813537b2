import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runScenarioFile } from './run-file.js';
import type { ScenarioResult } from './run.js';

export interface WorkerTask {
  readonly id: number;
  readonly file: string;
  readonly cwd: string;
  readonly update: boolean;
}

export type WorkerReply = { readonly id: number; readonly result: ScenarioResult } | { readonly id: number; readonly error: string };

export interface PoolOptions {
  readonly cwd: string;
  readonly update?: boolean;
  /** Worker threads; default one per core (os.availableParallelism()), at most one per file. 1 runs in this thread. */
  readonly jobs?: number;
  /** Each result as soon as it and every earlier file are done, in the order of `files`. */
  readonly onResult?: (result: ScenarioResult, index: number) => void;
}

/** Most worker threads, whatever the core count says. */
export const WORKERS_MAX = 64;

function crashed(file: string, message: string): ScenarioResult {
  return {
    file, name: file, status: 'failed', steps: [], problems: [], goldens: [], durationMs: 0,
    failures: [{ message: `the scenario runner crashed: ${message}`, location: { file, line: 1, col: 1 } }],
  };
}

/**
 * A worker running worker.ts/worker.js beside this module. From dist it is the compiled file. From
 * source (under tsx or vitest) `execArgv: ['--import', 'tsx']` is not enough on Node 20 (a .ts worker
 * entry fails with ERR_UNKNOWN_FILE_EXTENSION), so a one-line bootstrap registers tsx's ESM hooks
 * in the worker and then imports the entry. tsx is resolved from here, whatever the working directory.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url), { stdout: false, stderr: false });
  const tsxPackage = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = new URL('dist/esm/api/index.mjs', tsxPackage).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, stdout: false, stderr: false });
}

/**
 * Runs scenario files, in parallel on worker threads, and returns their results in the order of
 * `files`. Each file runs alone in a fresh simulator, so the results do not depend on the number
 * of workers or on which worker ran what.
 */
export async function runScenarioFiles(files: readonly string[], options: PoolOptions): Promise<ScenarioResult[]> {
  const results: (ScenarioResult | undefined)[] = files.map(() => undefined);
  let emitted = 0;
  const settle = (index: number, result: ScenarioResult): void => {
    results[index] = result;
    while (emitted < files.length && results[emitted] !== undefined) {
      options.onResult?.(results[emitted] as ScenarioResult, emitted);
      emitted += 1;
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), files.length, WORKERS_MAX));
  if (jobs <= 1) {
    for (let i = 0; i < files.length; i += 1) {
      const file = files[i] as string;
      let result: ScenarioResult;
      try {
        result = await runScenarioFile(file, options.cwd, { update: options.update === true });
      } catch (err) {
        result = crashed(file, (err as Error).stack ?? String(err));
      }
      settle(i, result);
    }
    return results as ScenarioResult[];
  }

  let next = 0;
  await new Promise<void>((resolveAll) => {
    let running = 0;
    const launch = (): void => {
      if (next >= files.length) {
        if (running === 0) resolveAll();
        return;
      }
      running += 1;
      const worker = startWorker();
      let current: number | undefined;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        running -= 1;
        void worker.terminate();
        if (next < files.length) launch();
        else if (running === 0) resolveAll();
      };
      const feed = (): void => {
        if (next >= files.length) {
          current = undefined;
          finish();
          return;
        }
        current = next;
        next += 1;
        worker.postMessage({ id: current, file: files[current] as string, cwd: options.cwd, update: options.update === true } satisfies WorkerTask);
      };
      worker.on('message', (reply: WorkerReply) => {
        settle(reply.id, 'result' in reply ? reply.result : crashed(files[reply.id] as string, reply.error));
        feed();
      });
      worker.on('error', (err) => {
        if (current !== undefined) settle(current, crashed(files[current] as string, err.stack ?? err.message));
        current = undefined;
        finish();
      });
      worker.on('exit', (code) => {
        if (!done && current !== undefined) settle(current, crashed(files[current] as string, `worker exited with code ${code}`));
        current = undefined;
        finish();
      });
      feed();
    };
    for (let i = 0; i < jobs; i += 1) launch();
  });
  return results as ScenarioResult[];
}
