import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { orderView } from '../src/account/views.js';
import { isTransaction } from '../src/domain/journal-entry.js';
import type { Engine } from '../src/engine/engine.js';
import { createEngine } from '../src/engine/engine.js';
import { FileJournal } from '../src/journal/file-journal.js';
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
    for (const kind of [
      '"type":"LIMIT_ORDER"',
      '"reason":"TAKE_PROFIT_ORDER"',
      '"reason":"STOP_LOSS_ORDER"',
      '"reason":"LINKED_TRADE_CLOSED"',
      '"reason":"CLIENT_REQUEST"',
    ]) {
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

describe('restart from a file journal', () => {
  const A = '101-004-1000003-001';
  const T0 = Date.UTC(2024, 4, 6, 12, 0, 0) * 1000;
  const SECOND = 1_000_000;
  const open = (journal: FileJournal, start: number): Engine =>
    createEngine({ accounts: [{ id: A, currency: 'USD', balance: '100000', hedgingEnabled: true }], start, journal });
  /** Orders as GET shows them, and the trailing stops as the trigger index holds them. */
  const orders = (engine: Engine): unknown => {
    const state = engine.account(A)?.state;
    if (state === undefined) throw new Error('no account');
    const trailing = [...state.orders.values()]
      .map((o) => o.trailing)
      .filter((t) => t !== undefined)
      .map((t) => ({ ...t }));
    return { orders: [...state.orders.values()].map((o) => orderView(state, o)), trailing };
  };

  it('rebuilds trailing stops exactly, levels moved by quotes without any transaction included', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'v20sim-trailing-'));
    try {
      const journal = FileJournal.open(dir);
      const engine = open(journal, T0);
      let t = T0;
      const quote = (bid: number, ask: number): void => engine.pushTick({ instrument: 'EUR_USD', time: (t += SECOND), bid, ask });
      quote(1.1, 1.1002);
      engine.execute(A, {
        type: 'CREATE_ORDER',
        order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', trailingStopLossOnFill: { distance: '0.00100' } },
      });
      engine.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '-1000' } });
      // A mid-watched trailing stop on the short trade: odd spreads put its level half way between ticks.
      engine.execute(A, {
        type: 'CREATE_ORDER',
        order: { type: 'TRAILING_STOP_LOSS', tradeID: '7', distance: '0.00150', triggerCondition: 'MID' },
      });
      for (const [bid, ask] of [
        [1.1003, 1.1006],
        [1.1008, 1.1009],
        [1.09951, 1.0998],
        [1.0991, 1.0994],
        [1.0997, 1.1],
      ])
        quote(bid as number, ask as number);
      const live = orders(engine);
      const transactions = engine.account(A)?.log.length;
      journal.close();

      const text = readFileSync(path.join(dir, `${A}.ndjson`), 'utf8');
      expect(text).toContain('{"type":"TRAILING_STOP_VALUE","orderID":"5"');
      expect(text).toMatch(/"orderID":"8","trailingStopValue":"1\.\d{5}5"/);
      const reopened = FileJournal.open(dir);
      const restored = open(reopened, t);
      expect(orders(restored)).toEqual(live);
      expect(restored.account(A)?.log).toHaveLength(transactions as number);
      expect(restored.account(A)?.log.some((tx) => (tx.type as string) === 'TRAILING_STOP_VALUE')).toBe(false);
      expect(reopened.read(A).filter(isTransaction)).toHaveLength(transactions as number);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
