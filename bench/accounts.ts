/**
 * How many accounts one server process holds: the numbers that decide when accounts must be
 * sharded across processes (ARCHITECTURE.md, "Past one machine"). For 1 to 10,000 accounts in one
 * engine, each with an open trade (MARKET 100 EUR_USD, so every quote revalues it) and a resting
 * LIMIT far from the market:
 *
 * - heap per account after a full collection (state, trade, order, transactions, indexes);
 * - the cost of one EUR_USD quote, which every account sees: total and per account.
 *
 *   node --expose-gc --import tsx bench/accounts.ts [maxAccounts]
 */
import { loadavg } from 'node:os';
import type { Tick } from '../src/domain/tick.js';
import { createEngine } from '../src/engine/engine.js';
import { collector } from './lib.js';

const T0 = Date.UTC(2024, 0, 2, 12) * 1000;
const QUOTES = 2_000;
const gc = collector();
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};
const accountId = (i: number): string => `101-004-${String(1_000_000 + i)}-001`;

function measure(count: number): { heapPerAccount: number; quoteUs: number; perAccountNs: number } {
  const before = heap();
  const engine = createEngine({
    accounts: Array.from({ length: count }, (_, i) => ({ id: accountId(i), currency: 'USD', balance: '100000' })),
    start: T0,
  });
  engine.pushTick({ instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1001 });
  for (let i = 0; i < count; i += 1) {
    engine.execute(accountId(i), { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
    engine.execute(accountId(i), { type: 'CREATE_ORDER', order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.00000' } });
  }
  const heapPerAccount = (heap() - before) / count;
  const ticks: Tick[] = Array.from({ length: QUOTES }, (_, i) => {
    const bid = 1.1 + (i % 7) * 0.00001;
    return { instrument: 'EUR_USD', time: T0 + (i + 1) * 1_000_000, bid, ask: bid + 0.0001 };
  });
  const start = performance.now();
  for (const tick of ticks) engine.pushTick(tick);
  const quoteUs = ((performance.now() - start) * 1000) / QUOTES;
  return { heapPerAccount, quoteUs, perAccountNs: (quoteUs * 1000) / count };
}

const max = Number(process.argv[2] ?? 10_000);
console.log(`accounts per process, load ${loadavg()[0]?.toFixed(2)}, ${new Date().toISOString()}`);
console.log('accounts | heap per account | one quote | per account per quote');
for (const count of [1, 100, 1_000, 10_000].filter((n) => n <= max)) {
  const r = measure(count);
  console.log(
    `${String(count).padStart(8)} | ${(r.heapPerAccount / 1024).toFixed(1).padStart(10)} KB | ${r.quoteUs.toFixed(1).padStart(9)} us | ${r.perAccountNs.toFixed(0).padStart(8)} ns`,
  );
}
