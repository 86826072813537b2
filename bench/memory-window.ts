/**
 * `npm run bench:memory`: RSS and heapUsed of one account after 1,000,000 transactions, with the
 * windows of serve with a data dir (the newest 10,000 transactions in memory, older ones read from
 * the journal; the newest 50,000 ended orders and closed trades, older ones paged out to a scratch
 * file) and without them (everything kept, as before the windows). Each case runs in a child process
 * of its own, so one case's heap never counts in the other's RSS. Through the engine directly (no
 * HTTP), journaled to a FileJournal in a temporary directory (deleted afterwards), two workloads:
 * - market: market orders of +1/-1 unit, each a MARKET_ORDER and its ORDER_FILL, every other one
 *   opening a trade the next one closes: 500,000 ended orders and 250,000 closed trades;
 * - deposits: TRANSFER_FUNDS of 1, nothing but transactions: what the window alone saves.
 * A benchmark, not a test: it prints figures and never fails on them.
 *
 * Options: --transactions N (default 1,000,000); --window N|all --kind market|deposits (one case in
 * this process).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../src/engine/engine.js';
import { FileJournal } from '../src/journal/file-journal.js';
import { RecordFiles } from '../src/journal/record-file.js';
import { collector, printMachine } from './lib.js';

const ACCOUNT = '101-004-1000005-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const SERVE_WINDOW = 10_000;
/** serve's default recordsInMemory (src/cli/config.ts DEFAULT_RECORDS_IN_MEMORY). */
const SERVE_RECORDS = 50_000;
const MB = 2 ** 20;

type Kind = 'market' | 'deposits';

interface Reading {
  readonly kind: Kind;
  readonly window: string;
  readonly transactions: number;
  readonly seconds: number;
  readonly rssMB: number;
  readonly heapUsedMB: number;
  readonly journalMB: number;
  readonly readBackMs: number;
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** One case in this process: the account, its trades, the figures after two full collections. */
function runCase(transactions: number, window: number | undefined, kind: Kind): Reading {
  const dir = mkdtempSync(join(tmpdir(), 'v20sim-memory-window-'));
  try {
    const journal = FileJournal.open(dir);
    const stores = new RecordFiles((_id, kind) => join(dir, `${kind}.records`));
    const records = { window: SERVE_RECORDS, store: stores.store };
    const engine = createEngine({
      accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000000' }],
      start: T0,
      journal,
      ...(window === undefined ? {} : { transactionsInMemory: window, recordsInMemory: records }),
    });
    const account = engine.account(ACCOUNT)!;
    const started = process.hrtime.bigint();
    let time = T0;
    for (let i = 0; account.log.length < transactions; i += 1) {
      time += 1_000_000;
      if (kind === 'deposits') {
        engine.execute(ACCOUNT, { type: 'TRANSFER_FUNDS', amount: '1' }, { now: time });
        continue;
      }
      engine.pushTick({ instrument: 'EUR_USD', time, bid: 1.1 + (i % 50) / 100_000, ask: 1.1002 + (i % 50) / 100_000 });
      engine.execute(ACCOUNT, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: i % 2 === 0 ? '1' : '-1' } });
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const gc = collector();
    gc();
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    // One old read, to show what a read below the window costs (a scan of the journal file).
    const readStarted = process.hrtime.bigint();
    const old = account.log.get(Math.floor(transactions / 2));
    const readBackMs = Number(process.hrtime.bigint() - readStarted) / 1e6;
    if (old === undefined) throw new Error('the old transaction did not answer');
    const journalMB = statSync(journal.path(ACCOUNT)).size / MB;
    journal.close();
    stores.remove();
    return {
      kind,
      window: window === undefined ? 'all (no window)' : `${window} + ${SERVE_RECORDS}`,
      transactions: account.log.length,
      seconds,
      rssMB: rss / MB,
      heapUsedMB: heapUsed / MB,
      journalMB,
      readBackMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one case in a child node (same flags), returning its reading. */
function runChild(transactions: number, window: number | undefined, kind: Kind): Reading {
  const args = [
    '--expose-gc',
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    '--transactions',
    String(transactions),
    ...(window === undefined ? ['--window', 'all'] : ['--window', String(window)]),
    '--kind',
    kind,
  ];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`case window=${window ?? 'all'} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string) as Reading;
}

function row(r: Reading): string {
  const cells = [
    r.kind.padEnd(9),
    r.window.padEnd(16),
    String(r.transactions).padStart(10),
    r.rssMB.toFixed(0).padStart(8),
    r.heapUsedMB.toFixed(0).padStart(10),
    r.journalMB.toFixed(0).padStart(11),
    r.seconds.toFixed(1).padStart(8),
    r.readBackMs.toFixed(0).padStart(12),
  ];
  return `${cells.join(' ')}\n`;
}

const transactions = Number(arg('transactions') ?? 1_000_000);
const single = arg('window');
if (single !== undefined) {
  const kind: Kind = arg('kind') === 'deposits' ? 'deposits' : 'market';
  process.stdout.write(`${JSON.stringify(runCase(transactions, single === 'all' ? undefined : Number(single), kind))}\n`);
} else {
  printMachine();
  process.stdout.write(`one account, ${transactions} transactions through the engine, FileJournal\n\n`);
  process.stdout.write('workload  window           transactions  RSS MB  heapUsed MB  journal MB  seconds  old read ms\n');
  for (const kind of ['market', 'deposits'] as const)
    for (const window of [SERVE_WINDOW, undefined]) process.stdout.write(row(runChild(transactions, window, kind)));
}
