/**
 * The bundled CLI (`npm run build` writes dist/bundle/, which bin/v20sim.js runs first): built here
 * into a folder of its own beside dist/bundle (same depth, so its package.json, schema/ and
 * examples/ paths resolve the same), it prints help, serves the v3 API and its price stream, runs scenario files on its
 * worker threads, and writes backtest and sweep outputs byte-identical to the TypeScript sources'.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCall, killAll, ROOT, runCommand, startServeProcess } from '../support/serve-process.js';

const bundleDir = path.join(ROOT, 'dist', `bundle-test-${process.pid}`);
const entry = path.join(bundleDir, 'main.js');
const out = mkdtempSync(path.join(tmpdir(), 'v20sim-bundle-'));
const OUTPUTS = ['transactions.ndjson', 'trades.csv', 'equity.csv', 'report.json', 'report.html'];

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/bundle.mjs', bundleDir], { cwd: ROOT, stdio: 'inherit' });
}, 60_000);

afterAll(() => {
  killAll();
  rmSync(bundleDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

async function run(args: string[], bundled: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runCommand(args, bundled ? { entry } : {});
  const { code } = await p.exited;
  return { code, stdout: p.stdout.join('\n'), stderr: p.stderr.join('') };
}

describe('the bundled CLI', () => {
  it('prints help', async () => {
    const r = await run(['--help'], true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: v20sim /);
  });

  it('serves the v3 API and its streams', async () => {
    const server = await startServeProcess(
      ['--no-generator', '--clock', 'manual', '--token', 'bundle-token', '--admin-token', 'bundle-admin'],
      { entry },
    );
    const r = await jsonCall(`${server.url}/v3/accounts`, 'GET', 'bundle-token');
    expect(r.status).toBe(200);
    const accounts = r.json['accounts'] as { id: string }[];
    expect(accounts).toHaveLength(2);
    // The streams are RxJS pipelines: the bundle keeps only the operators the code imports.
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/v3/accounts/${accounts[0]?.id}/pricing/stream?instruments=EUR_USD`, {
      headers: { authorization: 'Bearer bundle-token' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const pushed = await jsonCall(`${server.url}/sim/ticks`, 'POST', 'bundle-admin', {
      ticks: [{ instrument: 'EUR_USD', bid: '1.10000', ask: '1.10020' }],
    });
    expect(pushed.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"type":"PRICE"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    const price = text.split('\n').find((line) => line.includes('"type":"PRICE"'));
    expect(JSON.parse(price ?? '{}')).toMatchObject({
      type: 'PRICE',
      instrument: 'EUR_USD',
      closeoutBid: '1.10000',
      closeoutAsk: '1.10020',
    });
    server.child.kill('SIGTERM');
    await server.exited;
  }, 30_000);

  it('writes the same backtest and sweep outputs as the sources', async () => {
    for (const [name, args] of [
      ['single', ['--strategy', 'examples/strategies/grid.ts']],
      ['sweep', ['--strategy', 'examples/strategies/ma-crossover.ts', '--param', 'fast=5,10', '--workers', '2']],
    ] as const) {
      const a = await run(['backtest', ...args, '--out', path.join(out, `${name}-bundle`)], true);
      const b = await run(['backtest', ...args, '--out', path.join(out, `${name}-source`)], false);
      expect([a.code, b.code]).toEqual([0, 0]);
      const files = name === 'single' ? OUTPUTS : ['sweep.csv'];
      for (const file of files) {
        expect(readFileSync(path.join(out, `${name}-bundle`, file), 'utf8'), `${name}/${file}`).toBe(
          readFileSync(path.join(out, `${name}-source`, file), 'utf8'),
        );
      }
    }
  }, 120_000);

  it("names the strategy's own file and line when a TypeScript strategy throws", async () => {
    // Types before the throw, so the compiled line differs from the source line.
    const strategy = path.join(out, 'throws.ts');
    writeFileSync(
      strategy,
      [
        'interface Count {',
        '  n: number;',
        '}',
        'export default {',
        "  name: 'throws',",
        '  params: {},',
        '  create() {',
        '    const count: Count = { n: 0 };',
        '    return {',
        '      onTick(): void {',
        "        if ((count.n += 1) === 3) throw new Error('thrown on the third tick');",
        '      },',
        '    };',
        '  },',
        '};',
        '',
      ].join('\n'),
    );
    const r = await run(['backtest', '--strategy', strategy, '--out', path.join(out, 'throws')], true);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('thrown on the third tick');
    expect(r.stderr).toContain(`${strategy}:11:`);
  }, 60_000);

  it('runs scenario files on its worker threads', async () => {
    const r = await run(['scenario', 'run', 'scenarios/orders', '--jobs', '2'], true);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/passed/);
  }, 60_000);
});
