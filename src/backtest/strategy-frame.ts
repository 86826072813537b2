/**
 * Where in the strategy an error was thrown: the first stack frame outside v20sim's own code and
 * Node's, as `file:line:column`. A sweep's run fails on another thread or machine, where only the
 * message travels; naming the place in it saves a second run to find it.
 */
import { fileURLToPath } from 'node:url';

/** v20sim's own code: its sources, its build and its dependencies, under the package root (this file is in src/, dist/ or dist/bundle/). */
const OWN = ((): string[] => {
  const root = fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/](?:src|dist)[\\/].*$/s, '');
  return ['src', 'dist', 'node_modules'].map((folder) => `${root}/${folder}/`);
})();

/** `    at f (LOCATION)` or `    at LOCATION`, LOCATION ending in :line:column. */
const FRAME_RE = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

export function strategyFrame(error: unknown): string | undefined {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  for (const line of stack.split('\n')) {
    const m = FRAME_RE.exec(line);
    if (m === null) continue;
    const where = m[1] as string;
    const file = where.startsWith('file://') ? fileURLToPath(where) : where;
    if (file.startsWith('node:') || OWN.some((own) => file.startsWith(own))) continue;
    return `${file}:${m[2] as string}:${m[3] as string}`;
  }
  return undefined;
}
