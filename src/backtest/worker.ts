import { Worker } from 'node:worker_threads';
import { isTypeScriptFile, tsxApiUrl } from './load.js';

/**
 * Starts a worker thread running `entry()` of a module beside this one. When the package runs
 * from its TypeScript sources (tsx, vitest), the worker loads the module through tsx's tsImport;
 * from the built package it imports the compiled .js. Either way no separate build step is needed.
 */
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const boot = workerData.boot;
  let mod;
  if (boot.tsxApi) {
    const api = await import(boot.tsxApi);
    mod = await api.tsImport(boot.module, boot.module);
  } else {
    mod = await import(boot.module);
  }
  mod[boot.entry]();
})().catch((error) => {
  if (parentPort) parentPort.postMessage({ type: 'error', index: null, message: String((error && error.stack) || error) });
});
`;

export function startModuleWorker(moduleName: string, entry: string, data: Record<string, unknown>): Worker {
  const fromSource = isTypeScriptFile(import.meta.url);
  const module = new URL(`./${moduleName}${fromSource ? '.ts' : '.js'}`, import.meta.url).href;
  const boot = { module, entry, tsxApi: fromSource ? tsxApiUrl() : null };
  return new Worker(BOOTSTRAP, { eval: true, workerData: { ...data, boot } });
}
