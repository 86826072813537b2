import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasLeanData } from './support/lean-eurusd.js';
import { runGridOnLean } from './support/run-grid.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function runInChildProcess(): { sha256: string; lines: number; ticks: number } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'test/support/run-grid.ts'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`child run failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() as string) as { sha256: string; lines: number; ticks: number };
}

describe.skipIf(!hasLeanData())('determinism on 532,903 real OANDA EUR/USD ticks', () => {
  it('gives the same journal byte for byte twice in one process', () => {
    const first = runGridOnLean();
    const second = runGridOnLean();
    expect(first.ticks).toBe(532_903);
    expect(first.lines).toBeGreaterThan(10_000);
    expect(second.text === first.text).toBe(true);
    // The run is not trivial: orders rest, fill, hit TP and SL and are cancelled.
    for (const kind of ['"type":"LIMIT_ORDER"', '"reason":"TAKE_PROFIT_ORDER"', '"reason":"STOP_LOSS_ORDER"', '"reason":"LINKED_TRADE_CLOSED"', '"reason":"CLIENT_REQUEST"']) {
      expect(first.text).toContain(kind);
    }
  });

  it('gives the same journal in two separate processes', () => {
    const here = runGridOnLean();
    const a = runInChildProcess();
    const b = runInChildProcess();
    expect(a).toEqual({ sha256: here.sha256, lines: here.lines, ticks: 532_903 });
    expect(b).toEqual(a);
  });
});

