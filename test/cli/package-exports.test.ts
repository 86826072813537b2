/**
 * What the package exports, as a project that installed it imports it: `v20sim`, `v20sim/scenario`
 * and `v20sim/api` (buildApp, the v3 API as a Fastify instance). Imported by package name from a
 * child process (Node resolves a package's own name through its exports), from the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/serve-process.js';

const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: string; types: string }>;
};
const built = existsSync(path.join(ROOT, 'dist', 'api', 'index.js'));

describe('package exports', () => {
  it('map each entry to the build of its source module', () => {
    expect(Object.keys(manifest.exports)).toEqual(['.', './scenario', './api']);
    for (const [name, target] of Object.entries(manifest.exports)) {
      const source = target.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      expect(existsSync(path.join(ROOT, source)), `${name} -> ${source}`).toBe(true);
      expect(target.types).toBe(target.import.replace(/\.js$/, '.d.ts'));
    }
  });

  it.skipIf(!built)('v20sim/api gives buildApp, which answers GET /v3/accounts in process (needs npm run build)', () => {
    const script = `
      const { createEngine } = await import('v20sim');
      const { buildApp } = await import('v20sim/api');
      const engine = createEngine({ accounts: [{ id: '101-004-1234567-001', currency: 'USD' }] });
      const app = await buildApp({ engine, tokens: [{ token: 'secret', accounts: '*' }] });
      const res = await app.inject({ method: 'GET', url: '/v3/accounts', headers: { authorization: 'Bearer secret' } });
      await app.close();
      console.log(res.statusCode, res.body);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(out.trim()).toBe('200 {"accounts":[{"id":"101-004-1234567-001","tags":[]}]}');
  });
});
