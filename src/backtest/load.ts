import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkDefinition } from './params.js';
import type { TickSourceInfo } from './runner.js';
import type { StrategyDefinition } from './strategy.js';
import { importModule } from './strategy-module.js';

function looksLikeDefinition(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { create?: unknown }).create === 'function';
}

/**
 * Loads a strategy module (.ts, .mts, .js, .mjs; TypeScript needs no build step) and checks its
 * default export. A CommonJS-compiled module's `exports.default` is found as well.
 */
export async function loadStrategy(file: string): Promise<StrategyDefinition> {
  const abs = path.resolve(file);
  if (!existsSync(abs)) throw new Error(`strategy file not found: ${file}`);
  const mod = (await importModule(pathToFileURL(abs).href)) as { default?: unknown };
  let candidate: unknown = mod.default ?? mod;
  for (let depth = 0; depth < 2 && !looksLikeDefinition(candidate); depth += 1) {
    const inner = (candidate as { default?: unknown } | null | undefined)?.default;
    if (inner === undefined) break;
    candidate = inner;
  }
  return checkDefinition(candidate, file);
}

const DIGEST_CHUNK = 1 << 20;

/** SHA-256 of a file's bytes, read in chunks. */
export function fileSha256(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(DIGEST_CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** What the report records of each tick file: its name (not its folder, so reports do not depend on where data lives) and digest. */
export function describeSources(files: readonly string[]): TickSourceInfo[] {
  return files.map((file) => ({ file: path.basename(file), sha256: fileSha256(file) }));
}
