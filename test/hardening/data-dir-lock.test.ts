/**
 * Fault injection, the data-directory lock: two `v20sim serve` processes started at the same
 * moment on one directory, many times. Expected: exactly one serves; the other exits with code 2
 * and says the directory is in use. A holder killed with SIGKILL leaves a lock that goes stale, and
 * the next start takes it over.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, runCommand, startServeProcess } from '../support/serve-process.js';
import { ADMIN, call, configFile, removeTempDirs, serveArgs, tempDir, USD } from './support.js';

afterAll(() => {
  killAll();
  removeTempDirs();
});

const ROUNDS = 5;

describe('two servers racing for one data dir', () => {
  it(`exactly one serves, the other exits 2 with a clear message (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const dir = tempDir();
      const dataDir = path.join(dir, 'data');
      const args = ['serve', '--host', '127.0.0.1', '--port', '0', ...serveArgs(configFile(dir), dataDir)];
      const both = [runCommand(args), runCommand(args)];
      // Whichever exits first is the loser; the winner keeps serving until it is stopped.
      const first = await Promise.race(both.map((p, i) => p.exited.then((e) => ({ i, e }))));
      const loser = both[first.i]!;
      const winner = both[1 - first.i]!;
      expect(first.e.code).toBe(2);
      expect(loser.stderr.join('')).toMatch(new RegExp(`v20sim: data dir ${dataDir} is in use by (process \\d+|another v20sim serve)`));
      expect(loser.stdout).toEqual([]);
      const url = (await winner.waitFor(/^listening /)).slice('listening '.length);
      expect((await call(`${url}/v3/accounts/${USD}/summary`, 'GET')).status).toBe(200);
      winner.child.kill('SIGTERM');
      expect((await winner.exited).code).toBe(0);
    }
  });

  it('a lock left by a killed server goes stale and is taken over', async () => {
    const dir = tempDir();
    const dataDir = path.join(dir, 'data');
    const args = serveArgs(configFile(dir), dataDir);
    const killed = await startServeProcess(args);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const next = await startServeProcess(args);
    expect((await call(`${next.url}/sim/clock`, 'GET', undefined, ADMIN)).status).toBe(200);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  });
});
