import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importModule, isSelfContained, isTypeScriptFile } from './strategy-module.js';

const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-strategy-module-'));
const cache = path.join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Files in the shared cache; it is made by the first compile, in whichever test that is. */
const cachedFiles = (): number => (existsSync(cache) ? readdirSync(cache).length : 0);

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return pathToFileURL(file).href;
}

describe('isSelfContained', () => {
  it('takes built-in imports and no imports', () => {
    expect(isSelfContained('const a = 1;\nexport default a;\n')).toBe(true);
    expect(isSelfContained('import { createHash } from "node:crypto";\nexport default 1;\n')).toBe(true);
    expect(isSelfContained('export * from "node:path";\n')).toBe(true);
  });
  it('refuses packages, relative modules, dynamic loading and import.meta', () => {
    expect(isSelfContained('import { x } from "./helper.js";\n')).toBe(false);
    expect(isSelfContained('import Decimal from "decimal.js";\n')).toBe(false);
    expect(isSelfContained('import "./side-effect.js";\n')).toBe(false);
    expect(isSelfContained('export { y } from "../y.js";\n')).toBe(false);
    expect(isSelfContained('const m = await import("node:fs");\n')).toBe(false);
    expect(isSelfContained('const u = import.meta.url;\n')).toBe(false);
    expect(isSelfContained('const r = require("fs");\n')).toBe(false);
  });
});

describe('importModule', () => {
  it('tells TypeScript file names', () => {
    expect(isTypeScriptFile('/a/s.ts')).toBe(true);
    expect(isTypeScriptFile('file:///a/s.mts?x=1')).toBe(true);
    expect(isTypeScriptFile('/a/s.tsx')).toBe(true);
    expect(isTypeScriptFile('/a/s.js')).toBe(false);
  });

  it('compiles a self-contained TypeScript file once and imports the cached JavaScript after', async () => {
    const url = write(
      'self.ts',
      'import type { Tick } from "../nowhere.js";\nimport { createHash } from "node:crypto";\nconst n: number = 41;\nexport default { n: n + 1, h: createHash("sha256").update("x").digest("hex").length, t: null as Tick | null };\n',
    );
    // A cache of its own: the other tests' files would be in the shared one, whichever ran first.
    const own = path.join(dir, 'cache-self');
    const first = (await importModule(url, own)) as { default: { n: number; h: number } };
    expect(first.default).toMatchObject({ n: 42, h: 64 });
    const cached = readdirSync(own);
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/^[0-9a-f]{32}\.mjs$/);
    // The same content hits the cache: no second file.
    const second = (await importModule(url, own)) as { default: { n: number } };
    expect(second.default.n).toBe(42);
    expect(readdirSync(own)).toHaveLength(1);
  });

  it('compiles a changed file again', async () => {
    const url = write('changing.ts', 'export default 1 as number;\n');
    expect(((await importModule(url, cache)) as { default: number }).default).toBe(1);
    const before = readdirSync(cache).length;
    write('changing.ts', 'export default 2 as number;\n');
    expect(((await importModule(url, cache)) as { default: number }).default).toBe(2);
    expect(readdirSync(cache).length).toBe(before + 1);
  });

  it('loads a TypeScript file that imports a helper beside it through tsx, and caches nothing for it', async () => {
    write('helper.ts', 'export const twice = (x: number): number => 2 * x;\n');
    const url = write('uses-helper.ts', 'import { twice } from "./helper.js";\nexport default twice(21);\n');
    const before = cachedFiles();
    // tsx's tsImport may wrap the default export once more (loadStrategy unwraps it).
    const mod = (await importModule(url, cache)) as { default: number | { default: number } };
    expect(typeof mod.default === 'number' ? mod.default : mod.default.default).toBe(42);
    expect(cachedFiles()).toBe(before);
  });

  it('imports JavaScript as it is', async () => {
    const url = write('plain.mjs', 'export default "js";\n');
    expect(((await importModule(url, cache)) as { default: string }).default).toBe('js');
  });
});
