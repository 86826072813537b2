import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../domain/journal-entry.js';
import { MemoryJournal } from '../journal/journal.js';
import { createEngine } from './engine.js';

const A = '101-004-1000000-001';
const B = '101-004-1000000-002';
const T0 = Date.UTC(2024, 0, 2) * 1000;

/** A MemoryJournal that counts appends and can be made to refuse them. */
class CountingJournal extends MemoryJournal {
  appends: string[] = [];
  refuse = false;
  override append(accountId: string, entries: readonly JournalEntry[]): void {
    if (this.refuse) throw new Error('disk full');
    this.appends.push(`${accountId}:${entries.length}`);
    super.append(accountId, entries);
  }
}

describe('opening an account', () => {
  it('journals CREATE, the deposit and the settings in one append', () => {
    const journal = new CountingJournal();
    const engine = createEngine({ accounts: [], start: T0, journal });
    engine.openAccount({ id: A, currency: 'USD', alias: 'main', marginRate: '0.05' });
    expect(journal.appends).toEqual([`${A}:4`]);
    expect(journal.read(A).map((e) => e.type)).toEqual(['CREATE', 'TRANSFER_FUNDS', 'CLIENT_CONFIGURE', 'CLIENT_CONFIGURE']);
  });

  it('an account whose opening the journal refuses does not exist, and its ID can be opened later', () => {
    const journal = new CountingJournal();
    const engine = createEngine({ accounts: [{ id: A, currency: 'USD' }], start: T0, journal });
    journal.refuse = true;
    expect(() => engine.openAccount({ id: B, currency: 'EUR', hedgingEnabled: true })).toThrow('disk full');
    expect(engine.accountIds()).toEqual([A]);
    expect(engine.account(B)).toBeUndefined();
    journal.refuse = false;
    engine.openAccount({ id: B, currency: 'EUR' });
    expect(engine.account(B)?.state.hedgingEnabled).toBe(false);
    expect(journal.read(B)[0]?.type).toBe('CREATE');
  });
});
