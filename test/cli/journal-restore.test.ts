import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountView } from '../../src/account/views.js';
import { isTransaction } from '../../src/domain/journal-entry.js';
import { createEngine } from '../../src/engine/engine.js';
import { FileJournal } from '../../src/journal/file-journal.js';

const A = '101-004-1000000-001';
const T0 = Date.UTC(2024, 0, 2) * 1000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-restore-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('an engine on a FileJournal', () => {
  it('restores an engine exactly: orders, trades, positions and IDs', () => {
    const journal = FileJournal.open(dir, { fsync: true });
    const engine = createEngine({ accounts: [{ id: A, currency: 'USD', hedgingEnabled: true }], start: T0, journal });
    engine.pushTick({ instrument: 'EUR_USD', time: T0 + 1, bid: 1.1, ask: 1.1002 });
    engine.execute(A, {
      type: 'CREATE_ORDER',
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1000', takeProfitOnFill: { price: '1.12000' } } as never,
    });
    engine.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '-500' } as never });
    engine.execute(A, { type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000' } as never });
    engine.pushTick({ instrument: 'EUR_USD', time: T0 + 2, bid: 1.1001, ask: 1.1003 });
    const before = accountView(engine.account(A)!.state);
    journal.close();

    const reopened = FileJournal.open(dir);
    const last = reopened.last(A)!;
    const restored = createEngine({ accounts: [{ id: A, currency: 'USD', hedgingEnabled: true }], start: T0 + 2, journal: reopened });
    restored.pushTick({ instrument: 'EUR_USD', time: T0 + 2, bid: 1.1001, ask: 1.1003 });
    expect(accountView(restored.account(A)!.state)).toEqual(before);
    const next = restored.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '1' } as never });
    expect(next.transactions[0]?.id).toBe(String(Number(last.id) + 1));
    expect(reopened.read(A).filter(isTransaction).at(-1)?.id).toBe(next.transactions.at(-1)?.id);
    reopened.close();
    expect(existsSync(join(dir, `${A}.commit`))).toBe(true);
  });

  it('replays a journal as it reads it, once, noting the highest numeric requestID on the way', () => {
    const journal = FileJournal.open(dir);
    const engine = createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0, journal, transactionsInMemory: 5 });
    engine.pushTick({ instrument: 'EUR_USD', time: T0 + 1, bid: 1.1, ask: 1.1002 });
    const market = (units: string, requestID: string) =>
      engine.execute(A, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units } as never }, { requestID });
    market('1000', '20000000000000000000001'); // past 2^64: compared as a BigInt
    market('-400', '3');
    market('-600', 'not-a-number');
    for (let i = 0; i < 20; i += 1) market(i % 2 === 0 ? '10' : '-10', String(100 + i));
    const before = accountView(engine.account(A)!.state);
    journal.close();

    const reopened = FileJournal.open(dir);
    const calls: string[] = [];
    const counted = new Proxy(reopened, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const restored = createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0 + 1, journal: counted, transactionsInMemory: 5 });
    // Neither the whole journal as one array nor a second pass over what the window let go.
    expect(calls.filter((c) => c === 'entries')).toEqual(['entries']);
    expect(calls).not.toContain('read');
    expect(calls).not.toContain('transactionsFrom');
    expect(restored.replayedRequestIdMax).toBe(20000000000000000000001n);
    restored.pushTick({ instrument: 'EUR_USD', time: T0 + 1, bid: 1.1, ask: 1.1002 });
    expect(accountView(restored.account(A)!.state)).toEqual(before);
    reopened.close();
  });

  it('notes no requestID when the journal holds none', () => {
    const journal = FileJournal.open(dir);
    createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0, journal });
    journal.close();
    const reopened = FileJournal.open(dir);
    expect(createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0, journal: reopened }).replayedRequestIdMax).toBeUndefined();
    reopened.close();
  });
});
