import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/engine.js';
import { DataDir, DataDirLockedError } from './data-dir.js';
import { LOCK_NAME } from './data-dir-lock.js';

const A = '101-004-1000000-001';
const T0 = Date.UTC(2024, 0, 2) * 1000;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'v20sim-datadir-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the data dir lock', () => {
  it('one holder at a time in a process; released on close, then taken again', async () => {
    const data = await DataDir.open(dir, { fsync: false });
    expect(statSync(join(dir, LOCK_NAME)).isDirectory()).toBe(true);
    await expect(DataDir.open(dir, { fsync: false })).rejects.toBeInstanceOf(DataDirLockedError);
    data.close();
    expect(existsSync(join(dir, LOCK_NAME))).toBe(false);
    (await DataDir.open(dir, { fsync: false })).close();
  });

  it('removes the pid lock file of an older version whose process is gone', async () => {
    writeFileSync(join(dir, LOCK_NAME), '999999999\n');
    const data = await DataDir.open(dir, { fsync: false });
    expect(statSync(join(dir, LOCK_NAME)).isDirectory()).toBe(true);
    data.close();
  });
});

describe('account records', () => {
  it('a record undone after a failed open leaves no trace; the next record of the ID wins, and survives a reopen', async () => {
    const data = await DataDir.open(dir, { fsync: true });
    const undo = data.recordAccount({ id: A, currency: 'USD', hedgingEnabled: true });
    undo();
    expect(data.recordedAccount(A)).toBeUndefined();
    expect(readFileSync(join(dir, 'accounts.ndjson'), 'utf8')).toBe('');
    data.recordAccount({ id: A, currency: 'EUR' });
    const engine = createEngine({ accounts: [{ id: A, currency: 'EUR' }], start: T0, journal: data.journal });
    expect(engine.accountIds()).toEqual([A]);
    data.close();
    const reopened = await DataDir.open(dir, { fsync: false });
    expect(reopened.recordedAccount(A)).toEqual({ id: A, currency: 'EUR' });
    // An account with committed history keeps the config it was opened with.
    reopened.recordAccount({ id: A, currency: 'EUR', hedgingEnabled: true });
    expect(reopened.recordedAccount(A)).toEqual({ id: A, currency: 'EUR' });
    reopened.close();
  });

  it('when a stale record could not be undone, a later record of the same ID replaces it', async () => {
    writeFileSync(join(dir, 'accounts.ndjson'), `${JSON.stringify({ id: A, currency: 'USD', hedgingEnabled: true })}\n`);
    const data = await DataDir.open(dir, { fsync: false });
    data.recordAccount({ id: A, currency: 'USD', hedgingEnabled: false });
    data.close();
    const reopened = await DataDir.open(dir, { fsync: false });
    expect(reopened.recordedAccount(A)).toEqual({ id: A, currency: 'USD', hedgingEnabled: false });
    reopened.close();
  });
});
