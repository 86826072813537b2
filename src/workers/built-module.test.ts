import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { builtModule } from './built-module.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'v20sim-built-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(rel: string, seconds: number): string {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, '');
  utimesSync(abs, seconds, seconds);
  return abs;
}

describe('the built twin of a source module', () => {
  it('is dist/…/x.js when it is newer than every source, else none', () => {
    const source = file('a/src/backtest/w.ts', 1000);
    file('a/src/other/newer.ts', 2000);
    file('a/dist/backtest/w.js', 3000);
    expect(builtModule(pathToFileURL(source))?.href).toBe(pathToFileURL(path.join(root, 'a/dist/backtest/w.js')).href);

    const stale = file('b/src/backtest/w.ts', 1000);
    file('b/src/other/newer.ts', 4000);
    file('b/dist/backtest/w.js', 3000);
    expect(builtModule(pathToFileURL(stale))).toBeUndefined();

    expect(builtModule(pathToFileURL(file('c/src/w.ts', 1000)))).toBeUndefined();
    // The bundle's entry of that name first.
    file('a/dist/bundle/w.js', 3000);
    expect(builtModule(pathToFileURL(source))?.href).toBe(pathToFileURL(path.join(root, 'a/dist/bundle/w.js')).href);
    expect(builtModule(pathToFileURL(path.join(root, 'a/dist/backtest/w.js')))).toBeUndefined();
  });
});
