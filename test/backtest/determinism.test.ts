import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktestCommand } from '../../src/cli/backtest-command.js';
import { memoryStream, removeTempDirs, tempDir } from './helpers.js';

const run = promisify(execFile);
const STRATEGIES = ['examples/strategies/ma-crossover.ts', 'examples/strategies/grid.ts', 'examples/strategies/channel-breakout.ts'];

async function inProcess(args: string[]): Promise<void> {
  const out = memoryStream();
  const err = memoryStream();
  const code = await runBacktestCommand(args, { stdout: out.stream, stderr: err.stream, isTTY: false });
  expect(code, err.text()).toBe(0);
}

function files(dir: string): Map<string, Buffer> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(path.join(dir, name))]),
  );
}

afterAll(removeTempDirs);

describe('backtest determinism', () => {
  for (const strategy of STRATEGIES) {
    it(`${path.basename(strategy)}: the same run twice, and once in another process, writes the same files byte for byte`, async () => {
      const [a, b, c] = [tempDir(), tempDir(), tempDir()];
      await inProcess(['--strategy', strategy, '--out', a]);
      await inProcess(['--strategy', strategy, '--out', b]);
      await run(process.execPath, ['--import', 'tsx', 'test/backtest/run-cli.ts', '--strategy', strategy, '--out', c], {
        cwd: process.cwd(),
      });
      const first = files(a);
      expect([...first.keys()]).toEqual(['equity.csv', 'report.html', 'report.json', 'trades.csv', 'transactions.ndjson']);
      for (const other of [files(b), files(c)]) {
        expect([...other.keys()]).toEqual([...first.keys()]);
        for (const [name, bytes] of first) expect(other.get(name)?.equals(bytes), name).toBe(true);
      }
    });
  }
});
