/**
 * The real Python clients against a real `v20sim serve` process on loopback: OANDA's official
 * bindings (`v20` 3.0.25) and the community `oandapyV20` 0.7.2, both unmodified from
 * ../shared/clients/python. Each drives a whole session (test/client/python/*_session.py) with
 * its own default parameter spellings and prints one JSON line per step; every step listed here
 * must have run and passed. Skips, saying why, only when python3 or the clients' packages
 * (requests, six, yaml) are missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRfc3339 } from '../../src/domain/time.js';
import { MANUAL_T0, quotes } from '../support/manual-serve.js';
import { ROOT, killAll, startServeWithConfig, type ServeProcess } from '../support/serve-process.js';

const CLIENTS = path.resolve(ROOT, '../shared/clients/python');
const SESSIONS = path.join(ROOT, 'test/client/python');
const TOKEN = 'python-clients-token';
const ADMIN = 'python-clients-admin';
/** Each client trades on its own pair of accounts (netting, hedging), so the sessions are independent. */
const ACCOUNTS = {
  v20: { netting: '101-004-7000000-001', hedging: '101-004-7000000-002' },
  oandapyV20: { netting: '101-004-7000000-003', hedging: '101-004-7000000-004' },
} as const;
type Pair = (typeof ACCOUNTS)[keyof typeof ACCOUNTS];

/**
 * The first interpreter that has the clients' packages (PYTHON, then the one on PATH, then
 * Debian's, which is where apt-get puts python3-requests when PATH holds another python3), or
 * why there is none.
 */
function findPython(): { python: string } | { missing: string } {
  if (!existsSync(CLIENTS)) return { missing: `${CLIENTS} is missing (the clients are read from ../shared)` };
  const candidates = [process.env['PYTHON'], 'python3', '/usr/bin/python3'].filter((c): c is string => c !== undefined && c !== '');
  let why = 'python3 is not installed (apt-get install python3)';
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import requests, six, yaml'], { encoding: 'utf8' });
    if (probe.error !== undefined) continue;
    if (probe.status === 0) return { python };
    why = `${python} lacks the clients' packages (apt-get install python3-requests python3-six python3-yaml): ${probe.stderr.trim().split('\n').pop() ?? ''}`;
  }
  return { missing: why };
}
const found = findPython();
const skipReason = 'missing' in found ? found.missing : null;
const PYTHON = 'python' in found ? found.python : 'python3';
if (skipReason !== null) console.warn(`skipping the Python client conformance suite: ${skipReason}`);

interface StepLine {
  readonly step?: string;
  readonly ok?: boolean;
  readonly error?: string;
  readonly trace?: string;
  readonly done?: boolean;
}

let server: ServeProcess;
let dir = '';

async function admin(method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  if (skipReason !== null) return;
  dir = mkdtempSync(path.join(tmpdir(), 'v20sim-python-'));
  server = await startServeWithConfig(dir, {
    accounts: Object.values(ACCOUNTS).flatMap((pair) => [
      { id: pair.netting, currency: 'USD', balance: '100000' },
      { id: pair.hedging, currency: 'USD', balance: '100000', hedging: true },
    ]),
    tokens: [TOKEN],
    adminToken: ADMIN,
    clock: 'manual',
    start: formatRfc3339(MANUAL_T0),
    heartbeatMs: 200,
    dataDir: path.join(dir, 'state'),
  });
  // Half an hour of EUR_USD and USD_JPY quotes, one a second each, so candles and prices exist.
  await admin('POST', '/sim/ticks', { ticks: quotes(1, 1800) });
}, 60_000);

afterAll(() => {
  killAll();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

/** Runs one session script to its end; the step lines it printed, by step. */
async function runSession(script: string, accounts: Pair): Promise<Map<string, StepLine>> {
  const { hostname, port } = new URL(server.url);
  const child = spawn(PYTHON, [path.join(SESSIONS, script)], {
    cwd: SESSIONS,
    env: {
      ...process.env,
      PYTHONPATH: [SESSIONS, CLIENTS].join(path.delimiter),
      PYTHONDONTWRITEBYTECODE: '1',
      V20SIM_HOST: hostname,
      V20SIM_PORT: port,
      V20SIM_TOKEN: TOKEN,
      V20SIM_ADMIN_TOKEN: ADMIN,
      V20SIM_ACCOUNT: accounts.netting,
      V20SIM_HEDGED_ACCOUNT: accounts.hedging,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const steps = new Map<string, StepLine>();
  let finished = false;
  for (const line of out.split('\n')) {
    if (line === '') continue;
    const parsed = JSON.parse(line) as StepLine;
    if (parsed.done === true) finished = true;
    if (parsed.step !== undefined) steps.set(parsed.step, parsed);
  }
  if (code !== 0 || !finished) throw new Error(`${script} exited ${code} before the end\nstdout: ${out}\nstderr: ${err}`);
  return steps;
}

function describeSession(title: string, script: string, accounts: Pair, expected: readonly string[]): void {
  describe.skipIf(skipReason !== null)(title, () => {
    let steps = new Map<string, StepLine>();
    beforeAll(async () => {
      steps = await runSession(script, accounts);
    }, 120_000);
    it('runs exactly the expected steps', () => {
      expect([...steps.keys()]).toEqual(expected);
    });
    it.each(expected)('%s', (name) => {
      const line = steps.get(name);
      expect(line, `step ${name} did not run`).toBeDefined();
      expect(line?.ok, `${line?.error ?? ''}\n${line?.trace ?? ''}`).toBe(true);
    });
  });
}

describeSession('OANDA v20 Python bindings 3.0.25', 'v20_session.py', ACCOUNTS.v20, [
  'account.list',
  'account.get',
  'account.summary',
  'account.instruments',
  'account.configure',
  'instrument.candles count',
  'instrument.candles from includeFirst alignment',
  'pricing.get',
  'pricing.stream snapshot and live price',
  'order.market with on-fill orders',
  'order.limit GTD zoneless',
  'order.stop',
  'order.market_if_touched',
  'order.take_profit stop_loss trailing_stop_loss on a trade',
  'order.get list list_pending',
  'order.limit_replace',
  'order.set_client_extensions',
  'order.cancel',
  'trade.list get set_client_extensions',
  'trade.set_dependent_orders',
  'trade.close partial and all',
  'position.list get close',
  'transaction.list get range since',
  'transaction.stream',
  'account.changes',
  'errors',
  'instrument.order_book position_book',
]);

describeSession('oandapyV20 0.7.2', 'oandapy_session.py', ACCOUNTS.oandapyV20, [
  'AccountList AccountDetails AccountSummary',
  'AccountInstruments AccountConfiguration',
  'InstrumentsCandles',
  'PricingInfo',
  'PricingStream',
  'OrderCreate market with on-fill',
  'OrderCreate limit stop MIT',
  'OrderCreate TP SL TSL on a trade',
  'OrderList OrdersPending OrderDetails',
  'OrderReplace OrderClientExtensions OrderCancel',
  'TradesList OpenTrades TradeDetails',
  'TradeClientExtensions TradeCRCDO',
  'TradeClose',
  'PositionList OpenPositions PositionDetails PositionClose',
  'TransactionList TransactionDetails TransactionIDRange TransactionsSinceID',
  'TransactionsStream',
  'AccountChanges',
  'V20Error',
  'InstrumentsOrderBook InstrumentsPositionBook',
]);
