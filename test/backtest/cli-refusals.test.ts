import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktestCommand } from '../../src/cli/backtest-command.js';
import { memoryStream, removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

const MA = 'examples/strategies/ma-crossover.ts';

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await runBacktestCommand(args, { stdout: stdout.stream, stderr: stderr.stream, isTTY: false });
  return { code, out: stdout.text() };
}

describe('v20sim backtest: why orders were refused', () => {
  it('names the reasons of the rejects after the summary, most frequent first', async () => {
    // No tick of the sample (EUR_USD, USD_JPY) converts P/L to GBP: v20 has no rate to value a fill with.
    const r = await run(['--strategy', MA, '--account-currency', 'GBP', '--out', path.join(tempDir(), 'gbp')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/transactions +\d+ \(0 fills, (\d+) rejects\)\n {2}refused: INSTRUMENT_PRICE_UNKNOWN \1\n/);
  });

  it('says nothing more when nothing was refused', async () => {
    const r = await run(['--strategy', MA, '--out', path.join(tempDir(), 'usd')]);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('refused:');
  });
});
