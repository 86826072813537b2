/** Shared by the fault-injection tests: temp data dirs, a config, and JSON calls to a serve process. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsonCall } from '../support/serve-process.js';

export const TOKEN = 'hardening-token';
export const ADMIN = 'hardening-admin';
export const USD = '101-004-1000000-001';
export const T1 = '2024-01-02T00:00:01.000000000Z';
export const TICK = { instrument: 'EUR_USD', time: T1, bid: '1.10000', ask: '1.10020' };

const dirs: string[] = [];

export function tempDir(prefix = 'v20sim-hardening-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A config file with the given accounts (default: one USD account, no alias), fixed tokens. */
export function configFile(dir: string, accounts: readonly unknown[] = [{ id: USD, currency: 'USD' }]): string {
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ accounts, tokens: [TOKEN], adminToken: ADMIN }));
  return file;
}

/** The serve arguments of a data dir under a manual clock without generated prices. */
export function serveArgs(config: string, dataDir: string, ...more: string[]): string[] {
  return ['--config', config, '--data-dir', dataDir, '--clock', 'manual', '--no-generator', ...more];
}

export const call = (
  url: string,
  method: string,
  body?: unknown,
  token = TOKEN,
): Promise<{ status: number; json: Record<string, unknown> }> => jsonCall(url, method, token, body);
