import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { QUOTES_FILE, QuoteKeeper, readQuotes, restoreQuotes } from './quotes-file.js';

const A = '101-004-1000000-001';
const T0 = Date.UTC(2024, 0, 2) * 1000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-quotes-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const engineAt = (start: number) => createEngine({ accounts: [{ id: A, currency: 'USD' }], start });

describe('the quotes file', () => {
  it('keeps the latest quote per instrument, writes only when one came in, and restores them', () => {
    const engine = engineAt(T0);
    const keeper = new QuoteKeeper(dir, false, (line) => {
      throw new Error(line);
    });
    keeper.start(engine, []);
    keeper.flush();
    expect(existsSync(join(dir, QUOTES_FILE))).toBe(false);
    engine.pushTick({ instrument: 'EUR_USD', time: T0 + 1, bid: 1.1, ask: 1.1002 });
    engine.pushTick({ instrument: 'USD_JPY', time: T0 + 2, bid: 150.1, ask: 150.12, bids: [{ price: 150.1, liquidity: 1000 }] });
    engine.pushTick({ instrument: 'EUR_USD', time: T0 + 3, bid: 1.2, ask: 1.2002 });
    keeper.stop();
    const { ticks, warnings } = readQuotes(dir, engine.instruments);
    expect(warnings).toEqual([]);
    expect(ticks).toEqual([
      { instrument: 'EUR_USD', time: T0 + 3, bid: 1.2, ask: 1.2002 },
      { instrument: 'USD_JPY', time: T0 + 2, bid: 150.1, ask: 150.12, bids: [{ price: 150.1, liquidity: 1000 }] },
    ]);
    expect(existsSync(join(dir, `${QUOTES_FILE}.tmp`))).toBe(false);

    // A restarted engine whose clock is past the quotes gets them at its clock; an earlier one moves to them.
    const later = engineAt(T0 + 10);
    restoreQuotes(later, ticks);
    expect(later.now).toBe(T0 + 10);
    const earlier = engineAt(T0);
    restoreQuotes(earlier, ticks);
    expect(earlier.now).toBe(T0 + 3);
    const fill = earlier.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } as never });
    expect(fill.transactions.map((t) => t.type)).toEqual(['MARKET_ORDER', 'ORDER_FILL']);
  });

  it('skips what it cannot read, with a warning, and starts without it', () => {
    const engine = engineAt(T0);
    writeFileSync(
      join(dir, QUOTES_FILE),
      '{"quotes":[{"instrument":"NOPE_XXX","time":"2024-01-02T00:00:00Z","bid":1,"ask":2},{"instrument":"EUR_USD"}]}',
    );
    expect(readQuotes(dir, engine.instruments)).toEqual({
      ticks: [],
      warnings: [expect.stringMatching(/quotes\[0\] is not a quote/), expect.stringMatching(/quotes\[1\] is not a quote/)],
    });
    writeFileSync(join(dir, QUOTES_FILE), '{"quo');
    expect(readQuotes(dir, engine.instruments).warnings[0]).toMatch(/not JSON/);
    expect(readFileSync(join(dir, QUOTES_FILE), 'utf8')).toBe('{"quo');
  });
});
