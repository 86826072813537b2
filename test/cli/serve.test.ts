import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { FileConfig, ServeArgs } from '../../src/cli/config.js';
import { resolveSettings } from '../../src/cli/settings.js';
import { StartError, restoreNotice, startServe, type ServeHandle, type ServeIo } from '../../src/cli/serve.js';
import { formatRfc3339 } from '../../src/domain/time.js';

const root = mkdtempSync(path.join(tmpdir(), 'v20sim-serve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const servers: ServeHandle[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const USD = '101-004-1000000-001';
const GBP = '101-004-1000000-003';
const T0 = Date.UTC(2024, 0, 2) * 1000;
const S = 1_000_000;
const ADMIN = { authorization: 'Bearer adm' };
const USER = { authorization: 'Bearer tok' };
let dirs = 0;
const freshDir = (): string => path.join(root, `d${(dirs += 1)}`);

interface Captured extends ServeIo {
  out: (line: string) => void;
  lines: string[];
  errors: string[];
}

function io(): Captured {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: (l) => lines.push(l),
    err: (l) => errors.push(l),
    fatal: (m) => {
      throw new Error(`fatal: ${m}`);
    },
  };
}

async function start(file: FileConfig, args: ServeArgs, sink = io()): Promise<{ server: ServeHandle; io: Captured }> {
  const settings = resolveSettings(file, { host: '127.0.0.1', port: 0, token: 'tok', adminToken: 'adm', ...args }, () => 'unused');
  const server = await startServe(settings, sink);
  servers.push(server);
  return { server, io: sink };
}

async function refusal(file: FileConfig, args: ServeArgs): Promise<StartError> {
  try {
    await start(file, args);
  } catch (error) {
    if (error instanceof StartError) return error;
    throw error;
  }
  throw new Error('expected the server to refuse to start');
}

function tickFile(name: string, ticks: [number, number][]): string {
  const file = path.join(root, name);
  writeFileSync(
    file,
    ticks.map(([t, bid]) => JSON.stringify({ instrument: 'EUR_USD', time: formatRfc3339(t), bid, ask: bid + 0.0002 })).join('\n') + '\n',
  );
  return file;
}

/** 20,000 EUR/USD quotes a millisecond apart from T0. */
function millisecondTicks(name: string): string {
  return tickFile(
    name,
    Array.from({ length: 20_000 }, (_, i): [number, number] => [T0 + i * 1000, 1.1 + (i % 7) * 0.0001]),
  );
}

/** A sink, and a promise kept at the replay's last line. */
function replaySink(): { sink: Captured; done: Promise<void> } {
  const sink = io();
  const done = new Promise<void>((resolve) => {
    sink.out = (line) => {
      sink.lines.push(line);
      if (line.startsWith('replay finished')) resolve();
    };
  });
  return { sink, done };
}

async function inject(
  server: ServeHandle,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers = ADMIN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await server.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('serve (in process)', () => {
  it('manual clock: nothing moves until the control API steps through the file', async () => {
    const file = tickFile('manual.ndjson', [
      [T0 + S, 1.1],
      [T0 + 2 * S, 1.2],
      [T0 + 3 * S, 1.3],
    ]);
    const { server } = await start({}, { clock: 'manual', ticks: [file] });
    expect(server.engine.now).toBe(T0 + S);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.engine.account(USD)?.state.prices.get('EUR_USD')?.known ?? false).toBe(false);
    expect(await inject(server, 'POST', '/sim/clock/advance', { seconds: 1 })).toEqual({
      status: 200,
      body: { time: formatRfc3339(T0 + 2 * S) },
    });
    const prices = await inject(server, 'GET', `/v3/accounts/${USD}/pricing?instruments=EUR_USD`, undefined, USER);
    expect((prices.body['prices'] as { bids: { price: string }[] }[])[0]?.bids[0]?.price).toBe('1.20000');
    // A pushed tick first lets the file catch up to its time.
    await inject(server, 'POST', '/sim/ticks', {
      ticks: [{ instrument: 'EUR_USD', time: formatRfc3339(T0 + 4 * S), bid: '1.4', ask: '1.4002' }],
    });
    expect(server.engine.account(USD)?.state.prices.get('EUR_USD')?.time).toBe(T0 + 4 * S);
  });

  it('manual clock over a file that goes back in time: the advance succeeds, the feed stops there and says where', async () => {
    const file = tickFile('back.ndjson', [
      [T0 + S, 1.1],
      [T0 + 3 * S, 1.3],
      [T0 + 2 * S, 1.2],
      [T0 + 4 * S, 1.4],
    ]);
    const { server, io: sink } = await start({}, { clock: 'manual', ticks: [file] });
    expect(await inject(server, 'POST', '/sim/clock/advance', { seconds: 5 })).toEqual({
      status: 200,
      body: { time: formatRfc3339(T0 + 6 * S) },
    });
    // The tick before the one going back was fed; none after it.
    expect(server.engine.account(USD)?.state.prices.get('EUR_USD')?.time).toBe(T0 + 3 * S);
    expect(sink.errors).toEqual([
      `v20sim: the price feed stopped: ${file}:3: the time goes back to ${formatRfc3339(T0 + 2 * S)} after ${formatRfc3339(T0 + 3 * S)} (ticks must be in time order): ${JSON.stringify(readFileSync(file, 'utf8').split('\n')[2])}`,
    ]);
    expect((await inject(server, 'POST', '/sim/clock/advance', { seconds: 5 })).status).toBe(200);
    expect(sink.errors).toHaveLength(1);
  });

  it('replay over a file that goes back in time stops its feed where it goes back, naming the file and line', async () => {
    const file = tickFile('back-replay.ndjson', [
      [T0 + S, 1.1],
      [T0 + 3 * S, 1.3],
      [T0 + 2 * S, 1.2],
    ]);
    const sink = io();
    const stopped = new Promise<string>((resolve) => {
      sink.err = (line) => {
        sink.errors.push(line);
        resolve(line);
      };
    });
    await start({}, { ticks: [file], speed: Number.POSITIVE_INFINITY }, sink);
    expect(await stopped).toMatch(new RegExp(`^v20sim: the price feed stopped: .*back-replay\\.ndjson:3: the time goes back to `));
  });

  it('replay: plays a file at full speed and reports the end', async () => {
    const file = millisecondTicks('replay.ndjson');
    const { sink, done } = replaySink();
    const { server } = await start({}, { ticks: [file], speed: Number.POSITIVE_INFINITY }, sink);
    expect(sink.lines[0]).toBe(`listening ${server.url}`);
    expect(sink.lines.join('\n')).toContain('replay at full speed');
    await done;
    expect(sink.lines.at(-1)).toBe(`replay finished at ${formatRfc3339(T0 + 19_999_000)}: 20000 ticks pushed`);
    expect(server.engine.now).toBe(T0 + 19_999_000);
  });

  it('replay of a period: the ticks from --from, the files read no further than --to', async () => {
    const file = millisecondTicks('period.ndjson');
    const { sink, done } = replaySink();
    const dataDir = freshDir();
    const { server } = await start(
      {},
      { ticks: [file], speed: Number.POSITIVE_INFINITY, from: T0 + 5 * S, to: T0 + 15 * S, dataDir },
      sink,
    );
    const period = ` from ${formatRfc3339(T0 + 5 * S)} before ${formatRfc3339(T0 + 15 * S)}`;
    expect(sink.lines.join('\n')).toContain(`prices:      tick file ${file}${period}`);
    // The simulated start is the period's first tick.
    expect(sink.lines.join('\n')).toContain(`simulated time ${formatRfc3339(T0 + 5 * S)}`);
    await done;
    expect(sink.lines.at(-1)).toBe(`replay finished at ${formatRfc3339(T0 + 14_999_000)}: 10000 ticks pushed${period}`);
    expect(server.engine.now).toBe(T0 + 14_999_000);
    // The data dir's record of the run names the period.
    const run = JSON.parse(readFileSync(path.join(dataDir, 'runs.ndjson'), 'utf8').trim()) as { prices: unknown };
    expect(run.prices).toMatchObject({ window: { from: formatRfc3339(T0 + 5 * S), to: formatRfc3339(T0 + 15 * S) } });
  });

  it('a period: the ticks before --from are the candles past, and the candles go on from them', async () => {
    const file = millisecondTicks('history.ndjson');
    const { server, io: sink } = await start({}, { ticks: [file], clock: 'manual', from: T0 + 5 * S });
    expect(sink.lines.join('\n')).toContain('candles:     also of the 5000 quotes before the period (history; not traded)');
    // The clock starts at the period; the accounts have seen no quote yet.
    expect(server.engine.now).toBe(T0 + 5 * S);
    const candles = async (query: string): Promise<{ complete: boolean; volume: number; time: string }[]> => {
      const res = await inject(server, 'GET', `/v3/instruments/EUR_USD/candles?${query}`, undefined, USER);
      expect(res.status).toBe(200);
      return res.body['candles'] as { complete: boolean; volume: number; time: string }[];
    };
    expect(await candles('granularity=S5&count=10')).toEqual([
      expect.objectContaining({ complete: true, volume: 5000, time: formatRfc3339(T0) }),
    ]);
    expect(await candles('granularity=M1&count=10')).toEqual([
      expect.objectContaining({ complete: false, volume: 5000, time: formatRfc3339(T0) }),
    ]);
    // One second of the period: its 1,000 quotes go on the same minute.
    expect((await inject(server, 'POST', '/sim/clock/advance', { seconds: 1 })).status).toBe(200);
    expect(await candles('granularity=M1&count=10')).toEqual([
      expect.objectContaining({ complete: false, volume: 6001, time: formatRfc3339(T0) }),
    ]);
    expect(await candles('granularity=S5&count=10')).toEqual([
      expect.objectContaining({ complete: true, volume: 5000, time: formatRfc3339(T0) }),
      expect.objectContaining({ complete: false, volume: 1001, time: formatRfc3339(T0 + 5 * S) }),
    ]);
  });

  it('generated prices: the candles begin with the generated week before the start, which no account sees', async () => {
    const { server, io: sink } = await start({}, { generator: 7, clock: 'manual', start: T0 });
    expect(sink.lines.join('\n')).toContain('candles:     also of 7 days of generated quotes before the start (history; not traded)');
    const opened = server.engine.account(USD)?.state.lastTransactionID;
    const candles = async (instrument: string, query: string): Promise<{ complete: boolean; time: string; mid: { c: string } }[]> => {
      const res = await inject(server, 'GET', `/v3/instruments/${instrument}/candles?${query}`, undefined, USER);
      expect(res.status).toBe(200);
      return res.body['candles'] as { complete: boolean; time: string; mid: { c: string } }[];
    };
    // What a client warming up asks for first: 500 M1 and 200 M15, all of them before the start.
    const m1 = await candles('EUR_USD', 'granularity=M1&count=500&price=M');
    expect(m1).toHaveLength(500);
    expect(m1.every((c) => c.complete && c.time < formatRfc3339(T0))).toBe(true);
    expect(await candles('EUR_USD', 'granularity=M15&count=200')).toHaveLength(200);
    // Its quotes are seconds apart: the past is only in the candles of a minute and longer.
    expect(await candles('EUR_USD', 'granularity=S5&count=10')).toEqual([]);
    // The past ends near where the generated prices begin (EUR/USD's typical mid, 1.0850).
    expect(Math.abs(Number(m1.at(-1)?.mid.c) - 1.085)).toBeLessThan(0.005);
    // An instrument the generator does not quote has no past.
    expect(await candles('EUR_GBP', 'granularity=M1&count=10')).toEqual([]);
    // The accounts saw none of it; the same seed makes the same past.
    expect(server.engine.account(USD)?.state.lastTransactionID).toBe(opened);
    expect(server.engine.now).toBe(T0);
    const again = await start({}, { generator: 7, clock: 'manual', start: T0 });
    const res = await inject(again.server, 'GET', '/v3/instruments/EUR_USD/candles?granularity=M1&count=500&price=M', undefined, USER);
    expect(res.body['candles']).toEqual(m1);
  });

  it('generated prices with historyDays 0: no past, and the banner says nothing of one', async () => {
    const { server, io: sink } = await start({ generator: { seed: 7, historyDays: 0 } }, { clock: 'manual', start: T0 });
    expect(sink.lines.join('\n')).not.toContain('candles:');
    const res = await inject(server, 'GET', '/v3/instruments/EUR_USD/candles?granularity=M1&count=10', undefined, USER);
    expect(res.body['candles']).toEqual([]);
    const oneDay = await start({ generator: { seed: 7, historyDays: 1 } }, { clock: 'manual', start: T0 });
    expect(oneDay.io.lines.join('\n')).toContain('candles:     also of 1 day of generated quotes before the start');
  });

  it('live: requests and pushed ticks are stamped with the wall clock', async () => {
    const before = Date.now() * 1000;
    // Always open: the wall clock may fall in the FX weekend, when a MARKET order is cancelled (MARKET_HALTED).
    const { server } = await start({ instruments: [{ name: 'EUR_USD', marketHours: { weekly: 'ALWAYS' } }] }, { noGenerator: true });
    await inject(server, 'POST', '/sim/ticks', { ticks: [{ instrument: 'EUR_USD', bid: '1.1', ask: '1.1002' }] });
    const order = await inject(
      server,
      'POST',
      `/v3/accounts/${USD}/orders`,
      { order: { type: 'MARKET', instrument: 'EUR_USD', units: '10' } },
      USER,
    );
    const time = Date.parse((order.body['orderFillTransaction'] as { time: string }).time) * 1000;
    expect(time).toBeGreaterThanOrEqual(before - 1_000_000);
    expect(time).toBeLessThanOrEqual(Date.now() * 1000 + 1_000_000);
  });

  it('restores accounts missing from the config, refuses a changed history, and records runs', async () => {
    const dataDir = freshDir();
    const first = await start({}, { clock: 'manual', dataDir });
    expect(
      (await inject(first.server, 'POST', '/sim/accounts', { id: GBP, currency: 'GBP', hedgingEnabled: true, alias: 'Pounds' })).status,
    ).toBe(201);
    await inject(first.server, 'POST', '/sim/clock/advance', { seconds: 60 });
    await inject(first.server, 'POST', `/sim/accounts/${GBP}/deposit`, { amount: '5' });
    await first.server.close();

    const second = await start({}, { clock: 'manual', dataDir });
    expect(second.server.engine.accountIds()).toEqual([USD, '101-004-1000000-002', GBP]);
    expect(second.server.engine.account(GBP)?.state).toMatchObject({
      hedgingEnabled: true,
      alias: 'Pounds',
      currency: 'GBP',
      lastTransactionID: 4,
    });
    // The clock resumes at the last transaction.
    expect(second.server.engine.now).toBe(T0 + 60 * S);
    expect(second.io.lines.join('\n')).toMatch(/101-004-1000000-003 {2}GBP {2}Pounds/);
    const runs = readFileSync(path.join(dataDir, 'runs.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(runs).toHaveLength(2);
    expect(runs[1]).toMatchObject({
      seed: 1,
      clock: 'manual',
      prices: { pushed: true },
      accounts: [USD, '101-004-1000000-002', GBP],
      simulatedStart: formatRfc3339(T0 + 60 * S),
    });
    expect(runs[1]?.['configDigest']).toMatch(/^[0-9a-f]{64}$/);

    // Two servers never share a data dir.
    expect((await refusal({}, { clock: 'manual', dataDir })).message).toMatch(/in use by process/);
    await second.server.close();

    const changed = await refusal({ accounts: [{ id: GBP, currency: 'USD' }] }, { clock: 'manual', dataDir });
    expect(changed.exitCode).toBe(2);
    expect(changed.message).toBe(`accounts[0].currency: ${GBP} is USD in the config but its journal in ${dataDir} was opened in GBP`);
    const hedging = await refusal({ accounts: [{ id: GBP, currency: 'GBP' }] }, { clock: 'manual', dataDir });
    expect(hedging.message).toContain('accounts[0].hedging');
  });

  it('after a restart, numbers its requests above every requestID in the data dir', async () => {
    const dataDir = freshDir();
    const configure = async (server: ServeHandle, alias: string): Promise<bigint> => {
      const res = await server.app.inject({
        method: 'PATCH',
        url: `/v3/accounts/${USD}/configuration`,
        headers: { ...USER, 'content-type': 'application/json' },
        payload: { alias },
      });
      expect(res.statusCode).toBe(200);
      const tx = (JSON.parse(res.body) as { clientConfigureTransaction: { requestID: string } }).clientConfigureTransaction;
      expect(tx.requestID).toBe(res.headers['requestid']);
      return BigInt(tx.requestID);
    };
    const first = await start({}, { clock: 'manual', dataDir });
    await configure(first.server, 'one');
    const highest = await configure(first.server, 'two');
    await first.server.close();

    const second = await start({}, { clock: 'manual', dataDir });
    expect(second.server.engine.replayedRequestIdMax).toBe(highest);
    expect(await configure(second.server, 'three')).toBeGreaterThanOrEqual(highest + 1_000_000n);
  });

  it('says on stderr first when its journals will take a while to restore, and nothing for small ones', async () => {
    expect(restoreNotice('state', 3, 403_412_400)).toBe('v20sim: restoring 3 accounts from state: 403 MB of journals');
    expect(restoreNotice('state', 1, 64_000_000)).toBe('v20sim: restoring 1 account from state: 64 MB of journals');
    expect(restoreNotice('state', 1, 63_999_999)).toBeUndefined();
    const dataDir = freshDir();
    await (await start({}, { clock: 'manual', dataDir })).server.close();
    const second = await start({}, { clock: 'manual', dataDir });
    expect(second.io.errors).toEqual([]);
  });

  it('with a data dir, pages ended orders out beyond recordsInMemory under .records, answers for them, and removes the scratch', async () => {
    const dataDir = freshDir();
    const first = await start({ recordsInMemory: 2 }, { clock: 'manual', dataDir });
    await inject(first.server, 'POST', '/sim/ticks', { ticks: [{ instrument: 'EUR_USD', bid: '1.10000', ask: '1.10020' }] });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const order = { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000', clientExtensions: { id: `c${i}` } } };
      const created = await inject(first.server, 'POST', `/v3/accounts/${USD}/orders`, order, USER);
      const id = (created.body['orderCreateTransaction'] as { id: string }).id;
      ids.push(id);
      await first.server.app.inject({ method: 'PUT', url: `/v3/accounts/${USD}/orders/${id}/cancel`, headers: USER });
    }
    const state = first.server.engine.account(USD)?.state;
    // The four oldest cancelled orders are on disk, the two newest in memory.
    expect(ids.map((id) => state?.orders.resident(Number(id)) === undefined)).toEqual([true, true, true, true, false, false]);
    const oldest = await inject(first.server, 'GET', `/v3/accounts/${USD}/orders/@c0`, undefined, USER);
    expect(existsSync(path.join(dataDir, '.records', `${USD}.orders`))).toBe(true);
    expect(oldest.body['order']).toMatchObject({ id: ids[0], state: 'CANCELLED', clientExtensions: { id: 'c0' } });
    const list = await inject(first.server, 'GET', `/v3/accounts/${USD}/orders?state=CANCELLED&count=10`, undefined, USER);
    expect((list.body['orders'] as { id: string }[]).map((o) => o.id)).toEqual([...ids].reverse());
    await first.server.close();
    expect(existsSync(path.join(dataDir, '.records'))).toBe(false);

    // Restarted, the account is rebuilt from its journal and pages again.
    const second = await start({ recordsInMemory: 2 }, { clock: 'manual', dataDir });
    const again = await inject(second.server, 'GET', `/v3/accounts/${USD}/orders/${ids[0] as string}`, undefined, USER);
    expect(again.body['order']).toEqual(oldest.body['order']);
    await second.server.close();
  });

  it('reports and moves aside a torn journal line, then starts', async () => {
    const dataDir = freshDir();
    const first = await start({}, { clock: 'manual', dataDir });
    await first.server.close();
    const file = path.join(dataDir, `${USD}.ndjson`);
    const size = readFileSync(file).length;
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('{"type":"TRANSFER_FUNDS","amo')]));
    const second = await start({}, { clock: 'manual', dataDir });
    expect(second.io.errors).toEqual([
      `v20sim: journal ${file}: an unfinished write after the last committed batch at byte ${size}: moved 29 bytes to ${file}.torn-${size} and continued with the transactions before it (none of them had been acknowledged)`,
    ]);
    expect(existsSync(`${file}.torn-${size}`)).toBe(true);
    expect(second.server.engine.account(USD)?.state.lastTransactionID).toBe(3);
  });

  it('refuses to start on a journal corrupted in the middle, naming file, line, expected and found length (exit 3)', async () => {
    const dataDir = freshDir();
    const first = await start({}, { clock: 'manual', dataDir });
    await first.server.close();
    const file = path.join(dataDir, `${USD}.ndjson`);
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    lines[1] = 'x'.repeat(lines[1]!.length);
    writeFileSync(file, lines.join('\n'));
    const refused = await refusal({}, { clock: 'manual', dataDir });
    expect(refused.exitCode).toBe(3);
    const at = lines[0]!.length + 1;
    expect(refused.message).toBe(
      `refusing to start: acknowledged transactions are missing from ${dataDir}\n` +
        `journal ${file} is damaged: expected ${text.length} bytes up to transaction 3; line 2 is not a transaction at byte ${at}, so only ${at} bytes up to transaction 1 are sound\n` +
        'Nothing was changed. Inspect the files, restore the data dir from a backup, or start with --recover-truncated to accept the loss (it is recorded in recoveries.ndjson).',
    );
  });

  it('refuses to start on a missing or unreadable tick file or a token for an unknown account', async () => {
    const missing = path.join(root, 'nope.csv');
    const noFile = await refusal({}, { ticks: [missing] });
    expect(noFile.exitCode).toBe(2);
    expect(noFile.message).toMatch(new RegExp(`^ticks\\[0\\]: cannot read ${missing}`));
    // A file that is there but cannot be read as ticks (a cut zip): the same kind of refusal, not a crash.
    const cut = path.join(root, 'cut.zip');
    writeFileSync(cut, Buffer.from('PK\u0003\u0004 cut short'));
    const unreadable = await refusal({}, { ticks: [cut] });
    expect(unreadable.exitCode).toBe(2);
    expect(unreadable.message).toBe(`cannot read the first tick: ${cut}: not a zip archive (no end of central directory record)`);
    const token = await refusal({ tokens: [{ token: 'x', accounts: ['101-004-9-001'] }] }, { clock: 'manual' });
    expect(token.message).toBe("tokens[0].accounts[0]: 101-004-9-001 is neither in the config's accounts nor in the data dir");
  });
});
