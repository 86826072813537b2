/**
 * Fault injection, damaged journals. Each case starts `v20sim serve` on a copy of one data dir
 * holding acknowledged transactions, damaged one way. Expected: a journal shorter than its commit
 * record (cut at a line, cut mid-line, emptied) or with a changed byte refuses to start, exit 3,
 * naming the file and the expected and found length and transaction ID, changing nothing; with
 * --recover-truncated it starts, says so on stderr and in recoveries.ndjson, and never gives out
 * an acknowledged ID again; bytes never acknowledged (a torn write) are moved aside as before.
 */
import { cpSync, existsSync, readFileSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, runCommand, startServeProcess } from '../support/serve-process.js';
import { ADMIN, call, configFile, removeTempDirs, serveArgs, tempDir, TICK, USD } from './support.js';

afterAll(() => {
  killAll();
  removeTempDirs();
});

let root: string;
let config: string;
let pristine: string;
/** Transaction IDs acknowledged in the pristine data dir. */
let lastAcknowledged: number;

beforeAll(async () => {
  root = tempDir();
  config = configFile(root);
  pristine = path.join(root, 'pristine');
  const server = await startServeProcess(serveArgs(config, pristine, '--fsync'));
  await call(`${server.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
  for (let i = 0; i < 3; i += 1) {
    const res = await call(`${server.url}/v3/accounts/${USD}/orders`, 'POST', {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' },
    });
    expect(res.status).toBe(201);
    lastAcknowledged = Number(res.json['lastTransactionID']);
  }
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
});

function copy(name: string): { dataDir: string; file: string } {
  const dataDir = path.join(root, name);
  cpSync(pristine, dataDir, { recursive: true });
  return { dataDir, file: path.join(dataDir, `${USD}.ndjson`) };
}

function lineEnds(file: string): number[] {
  const buf = readFileSync(file);
  const ends: number[] = [];
  for (let at = buf.indexOf(0x0a); at !== -1; at = buf.indexOf(0x0a, at + 1)) ends.push(at + 1);
  return ends;
}

function snapshot(dataDir: string): Record<string, number> {
  return Object.fromEntries(readdirSync(dataDir).map((n) => [n, statSync(path.join(dataDir, n)).size]));
}

async function refused(dataDir: string): Promise<string> {
  const before = snapshot(dataDir);
  const p = runCommand(['serve', '--port', '0', ...serveArgs(config, dataDir)]);
  expect((await p.exited).code).toBe(3);
  expect(p.stdout).toEqual([]);
  expect(snapshot(dataDir)).toEqual(before);
  return p.stderr.join('');
}

describe('a journal that lost acknowledged transactions refuses to start (exit 3)', () => {
  it('cut at a line boundary', async () => {
    const { dataDir, file } = copy('line');
    const full = statSync(file).size;
    const ends = lineEnds(file);
    truncateSync(file, ends.at(-2)!);
    const err = await refused(dataDir);
    expect(err).toContain(
      `journal ${file} is truncated: expected ${full} bytes up to transaction ${lastAcknowledged}, found ${ends.at(-2)} bytes`,
    );
    expect(err).toContain('--recover-truncated');
  });

  it('cut mid-line', async () => {
    const { dataDir, file } = copy('mid');
    truncateSync(file, statSync(file).size - 25);
    expect(await refused(dataDir)).toMatch(
      new RegExp(`journal ${file} is truncated: expected \\d+ bytes up to transaction ${lastAcknowledged}, found \\d+ bytes`),
    );
  });

  it('emptied', async () => {
    const { dataDir, file } = copy('empty');
    truncateSync(file, 0);
    expect(await refused(dataDir)).toContain(`found 0 bytes up to transaction none`);
  });

  it('a flipped bit inside a committed batch (found by its CRC-32C, not replayed)', async () => {
    const { dataDir, file } = copy('flip');
    const buf = readFileSync(file);
    const at = buf.indexOf('"units":"100"', lineEnds(file)[3]) + 10;
    buf[at] = buf[at]! ^ 0x01;
    writeFileSync(file, buf);
    expect(await refused(dataDir)).toMatch(
      /is damaged: expected \d+ bytes up to transaction \d+; the batch ending at line \d+ fails its CRC-32C/,
    );
  });
});

describe('--recover-truncated', () => {
  it('accepts the loss, records it, rewrites the commit record, and continues after the highest acknowledged ID', async () => {
    const { dataDir, file } = copy('recover');
    truncateSync(file, lineEnds(file).at(-2)! + 7);
    const server = await startServeProcess([...serveArgs(config, dataDir), '--recover-truncated']);
    const err = server.stderr.join('');
    const said = new RegExp(
      `journal ${file}: truncated: expected \\d+ bytes up to transaction ${lastAcknowledged}, found \\d+ bytes up to transaction \\d+; ` +
        `accepted by --recover-truncated: kept the first (\\d+) bytes: moved \\d+ bytes to ${file}.damaged-\\1; transactions \\d+-${lastAcknowledged} are lost and their IDs stay taken`,
    ).exec(err);
    expect(said, err).not.toBeNull();
    const notes = readFileSync(path.join(dataDir, 'recoveries.ndjson'), 'utf8').trim().split('\n');
    expect(notes).toHaveLength(1);
    expect(JSON.parse(notes[0]!)).toMatchObject({ accountID: USD, journal: file, lostTransactionIDs: { to: String(lastAcknowledged) } });
    await call(`${server.url}/sim/ticks`, 'POST', { ticks: [TICK] }, ADMIN);
    const next = await call(`${server.url}/v3/accounts/${USD}/orders`, 'POST', {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '1' },
    });
    expect(next.status).toBe(201);
    expect(Number((next.json['orderCreateTransaction'] as { id: string }).id)).toBe(lastAcknowledged + 1);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    // The commit record now tells the truth: the next start is clean, without the flag.
    const again = await startServeProcess(serveArgs(config, dataDir));
    expect(again.stderr.join('')).not.toMatch(/journal/);
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('is a config key too', async () => {
    const { dataDir, file } = copy('recover-config');
    truncateSync(file, 0);
    const withKey = path.join(root, 'recover.json');
    writeFileSync(withKey, JSON.stringify({ ...(JSON.parse(readFileSync(config, 'utf8')) as object), recoverTruncated: true }));
    const server = await startServeProcess(serveArgs(withKey, dataDir));
    expect(server.stderr.join('')).toContain(`transactions 1-${lastAcknowledged} are lost and their IDs stay taken`);
    const summary = (await call(`${server.url}/v3/accounts/${USD}/summary`, 'GET')).json;
    expect(summary['lastTransactionID']).toBe(String(lastAcknowledged));
    server.child.kill('SIGTERM');
    await server.exited;
  });
});

describe('a write that was never acknowledged', () => {
  it('is still cut and moved aside, and no 0-byte .torn file is left', async () => {
    const { dataDir, file } = copy('torn');
    const size = statSync(file).size;
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('{"type":"ORDER_FILL","orderID":"')]));
    const server = await startServeProcess([...serveArgs(config, dataDir), '--fsync']);
    expect(server.stderr.join('')).toContain(`journal ${file}: an unfinished write after the last committed batch at byte ${size}`);
    expect(readFileSync(`${file}.torn-${size}`, 'utf8')).toBe('{"type":"ORDER_FILL","orderID":"');
    server.child.kill('SIGTERM');
    await server.exited;
    for (const name of readdirSync(dataDir)) {
      if (name.includes('.torn')) expect(statSync(path.join(dataDir, name)).size).toBeGreaterThan(0);
      expect(name.endsWith('.tmp')).toBe(false);
    }
    expect(existsSync(path.join(dataDir, 'recoveries.ndjson'))).toBe(false);
  });
});
