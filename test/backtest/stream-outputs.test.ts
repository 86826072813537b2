import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  SAMPLE_TICKS_FILE,
  describeSources,
  loadStrategy,
  openTicks,
  outputFiles,
  runBacktest,
  runBacktestToFiles,
  type BacktestOptions,
  type StrategyContext,
} from '../../src/backtest/index.js';
import { runInto } from '../../src/backtest/runner.js';
import { RecordFile } from '../../src/journal/record-file.js';
import { SPILL_CHUNK_RECORDS } from '../../src/backtest/spill.js';
import { JournalFile, StreamedEquity, TEXT_BUFFER_CHARS } from '../../src/backtest/stream-outputs.js';
import { generateTicks } from '../../src/engine/feeds/index.js';
import { MICROS_PER_SECOND } from '../../src/domain/time.js';
import { removeTempDirs, strategyOf, tempDir } from './helpers.js';

afterAll(removeTempDirs);

/** Every file runBacktestToFiles wrote into `dir`, by name (no temporary file may be left). */
function written(dir: string): Map<string, string> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name), 'utf8')] as const));
}

/** The files writeOutputs would write for the same run held in memory. */
function inMemory(options: BacktestOptions): Map<string, string> {
  return new Map(outputFiles(runBacktest(options)));
}

/**
 * Market orders of alternating sign every `every` ticks, and every `every` ticks as well the number
 * and first ID of all the account's transactions read through the context (GET …/transactions/
 * sinceid?id=0, as HTTP): with a small window those come back from transactions.ndjson.
 */
function trader(every: number) {
  let ticks = 0;
  let side = 1;
  return strategyOf({
    onTick(_tick, ctx: StrategyContext) {
      ticks += 1;
      if (ticks % every !== 0) return;
      ctx.createOrder({ type: 'MARKET', instrument: 'EUR_USD', units: String(1000 * side) });
      side = -side;
      const all = ctx.transactionsSince('0');
      if (ticks % (every * 8) === 0) ctx.log(`${all.length} transactions, first ${all[0]?.id ?? '-'} ${all[0]?.type ?? ''}`);
    },
  });
}

/**
 * Entries with a take profit and a stop loss every `every` ticks, closed after a while, and every
 * few decisions a read of the oldest records: the first order and trade by ID and the newest
 * filled orders and closed trades, logged whole (with a small record window these come from disk).
 */
function recordReader(every: number) {
  let ticks = 0;
  let side = 1;
  let open: string | undefined;
  return strategyOf({
    onTick(tick, ctx: StrategyContext) {
      ticks += 1;
      if (ticks % every !== 0) return;
      if (open === undefined || ctx.trade(open)?.state !== 'OPEN') {
        const outcome = ctx.createOrder({
          type: 'MARKET',
          instrument: 'EUR_USD',
          units: String(1000 * side),
          takeProfitOnFill: { price: (tick.bid + side * 0.0004).toFixed(5) },
          stopLossOnFill: { distance: '0.00040' },
        });
        open = (outcome.response['orderFillTransaction'] as { tradeOpened?: { tradeID: string } } | undefined)?.tradeOpened?.tradeID;
        side = -side;
      } else if (ticks % (every * 3) === 0) ctx.closeTrade(open);
      if (ticks % (every * 4) === 0) {
        const reads = [
          ctx.order('4'),
          ctx.trade('5'),
          ctx.orders({ state: 'FILLED', count: 3 }),
          ctx.trades({ state: 'CLOSED', count: 2, beforeID: '30' }),
        ];
        ctx.log(JSON.stringify(reads));
      }
    },
  });
}

describe('runBacktestToFiles: the outputs streamed to disk', () => {
  for (const file of ['examples/strategies/ma-crossover.ts', 'examples/strategies/grid.ts']) {
    it(`${file} on the sample: the same five files, byte for byte, as writeOutputs(runBacktest())`, async () => {
      const strategy = await loadStrategy(file);
      const options = (): BacktestOptions => ({
        strategy,
        ticks: openTicks([SAMPLE_TICKS_FILE]),
        sources: describeSources([SAMPLE_TICKS_FILE]),
      });
      const dir = tempDir();
      const run = runBacktestToFiles(options(), dir);
      expect(run.files.map((f) => path.basename(f))).toEqual([
        'transactions.ndjson',
        'trades.csv',
        'equity.csv',
        'report.json',
        'report.html',
      ]);
      expect(written(dir)).toEqual(inMemory(options()));
    });
  }

  it('reads the transactions older than its window back from transactions.ndjson, as the in-memory run has them', () => {
    const options = (): BacktestOptions => ({
      strategy: trader(40),
      ticks: generateTicks({ seed: 5, instruments: ['EUR_USD'], count: 4_000 }),
      transactionsInMemory: 3,
    });
    const dir = tempDir();
    runBacktestToFiles(options(), dir);
    const files = written(dir);
    expect(files.get('strategy.log')).toMatch(/^\S+ \d+ transactions, first 1 CREATE\n/);
    expect(files).toEqual(inMemory(options()));
  });

  it('pages ended orders and closed trades out beyond its window and reads them back as the in-memory run has them', () => {
    const options = (): BacktestOptions => ({
      strategy: recordReader(25),
      ticks: generateTicks({ seed: 7, instruments: ['EUR_USD'], count: 6_000 }),
      transactionsInMemory: 3,
      recordsInMemory: 2,
    });
    const dir = tempDir();
    runBacktestToFiles(options(), dir);
    const files = written(dir);
    expect(files.get('strategy.log')).toMatch(/"state":"FILLED"/);
    expect(files.get('strategy.log')).toMatch(/"state":"CLOSED"/);
    expect(files).toEqual(inMemory(options()));

    // The same run through runInto: the oldest ended records are on disk, and still answer.
    const scratch = tempDir();
    const stores: RecordFile[] = [];
    const records = {
      window: 2,
      store: (_id: string, kind: 'orders' | 'trades') => {
        const file = new RecordFile(path.join(scratch, kind));
        stores.push(file);
        return file;
      },
    };
    const journal = new JournalFile(path.join(scratch, 'transactions.ndjson'));
    const equity = new StreamedEquity(scratch, path.join(scratch, 'equity.csv'));
    const { outcome } = runInto(options(), { journal, equity, records });
    const state = outcome.account.state;
    const firstFill = outcome.account.log.slice().find((tx) => tx.type === 'ORDER_FILL') as {
      orderID: string;
      tradeOpened?: { tradeID: string };
    };
    const orderId = Number(firstFill.orderID);
    const tradeId = Number(firstFill.tradeOpened?.tradeID);
    expect([state.orders.resident(orderId), state.trades.resident(tradeId)]).toEqual([undefined, undefined]);
    expect([state.orders.get(orderId)?.state, state.trades.get(tradeId)?.state]).toEqual(['FILLED', 'CLOSED']);
    expect(statSync(path.join(scratch, 'orders')).size).toBeGreaterThan(0);
    equity.remove();
    journal.text.close();
    for (const store of stores) store.remove();
    expect(readdirSync(scratch).sort()).toEqual(['equity.csv', 'transactions.ndjson']);
  });

  it('keeps its memory bounded over a long run: files are flushed as it goes, buffers and the transaction window stay small', () => {
    const count = 120_000;
    const window = 50;
    const options = (onProgress?: (ticks: number) => void, windowed = true): BacktestOptions => ({
      strategy: trader(500),
      ticks: generateTicks({ seed: 11, instruments: ['EUR_USD', 'USD_JPY'], count }),
      // A point every simulated second: some 30,000 points, so the page's curve is decimated.
      equityIntervalMicros: MICROS_PER_SECOND,
      progressEvery: 1 << 12,
      ...(windowed ? { transactionsInMemory: window } : {}),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
    const dir = tempDir();
    const journal = new JournalFile(path.join(dir, 'transactions.ndjson'));
    const equity = new StreamedEquity(dir, path.join(dir, 'equity.csv'));
    const sizes: number[] = [];
    let checks = 0;
    const { outcome } = runInto(
      options(() => {
        checks += 1;
        const held = equity.pending();
        expect(held.csvChars).toBeLessThan(TEXT_BUFFER_CHARS + 200);
        expect(held.curveRecords).toBeLessThan(SPILL_CHUNK_RECORDS);
        expect(held.priceRecords).toBeLessThan(SPILL_CHUNK_RECORDS);
        expect(journal.text.pendingChars).toBeLessThan(TEXT_BUFFER_CHARS + 4_000);
        sizes.push(statSync(path.join(dir, 'equity.csv')).size);
      }),
      { journal, equity },
    );
    expect(checks).toBeGreaterThan(20);
    // equity.csv grew on disk during the run, not only at its end.
    expect(sizes.filter((size, i) => i > 0 && size > (sizes[i - 1] as number)).length).toBeGreaterThan(5);
    const log = outcome.account.log;
    expect(log.length).toBeGreaterThan(4 * window);
    expect(log.length - log.firstKept + 1).toBeLessThanOrEqual(window);
    // An evicted transaction still answers, from the file.
    expect(log.get(1)?.type).toBe('CREATE');
    equity.remove();
    journal.text.close();

    const streamed = tempDir();
    runBacktestToFiles(options(), streamed);
    const files = written(streamed);
    expect(files.get('equity.csv')?.split('\n').length).toBeGreaterThan(20_000);
    expect(files).toEqual(inMemory(options(undefined, false)));
  });
});
