import { createHash } from 'node:crypto';
import { createEngine } from '../../src/engine/engine.js';
import { MemoryJournal } from '../../src/journal/journal.js';
import { leanTicks } from './lean-eurusd.js';
import { restingGrid } from './resting-grid.js';

export const GRID_ACCOUNT = '101-004-1000001-001';

/** The fixed strategy over the real EUR/USD ticks; returns the journal and its digest. */
export function runGridOnLean(): { text: string; sha256: string; lines: number; ticks: number } {
  const journal = new MemoryJournal();
  const engine = createEngine({
    accounts: [{ id: GRID_ACCOUNT, currency: 'USD', balance: '1000000' }],
    start: Date.UTC(2014, 4, 1) * 1000,
    journal,
    seed: 1,
  });
  const strategy = restingGrid(engine, GRID_ACCOUNT, { resting: 1000, every: 20, units: '1000' });
  let ticks = 0;
  for (const tick of leanTicks()) {
    engine.pushTick(tick);
    strategy(tick);
    ticks += 1;
  }
  const text = journal.text(GRID_ACCOUNT);
  return { text, sha256: createHash('sha256').update(text).digest('hex'), lines: journal.lineCount(GRID_ACCOUNT), ticks };
}

// Run as a script (a separate process in the determinism test): print the digest.
if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const result = runGridOnLean();
  process.stdout.write(`${JSON.stringify({ sha256: result.sha256, lines: result.lines, ticks: result.ticks })}\n`);
}
