// The README's library example: one account, seeded prices, a few v20 orders.
import { accountSummaryView, createEngine, generateTicks, type Tick } from '../src/index.js';

const ACCOUNT = '101-004-1234567-001';
const engine = createEngine({
  accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }],
  start: Date.UTC(2024, 0, 2) * 1000, // simulated time, in microseconds
  seed: 1,
});

// A day of seeded EUR/USD and USD/JPY quotes; the same seed always gives the same prices.
const ticks: Tick[] = [...generateTicks({ seed: 1, instruments: ['EUR_USD', 'USD_JPY'], start: engine.now, count: 200_000 })];
// Feed quotes until EUR/USD has a price, then trade at it.
let next = 0;
while (ticks[next]!.instrument !== 'EUR_USD') engine.pushTick(ticks[next++]!);
const quote = ticks[next]!;
engine.pushTick(ticks[next++]!);

// v20 order requests, exactly as a client would POST them.
const entry = engine.execute(ACCOUNT, {
  type: 'CREATE_ORDER',
  order: {
    type: 'MARKET',
    instrument: 'EUR_USD',
    units: '10000',
    takeProfitOnFill: { price: (quote.ask + 0.002).toFixed(5) },
    stopLossOnFill: { distance: '0.00150' },
  },
});
const fill = entry.response.orderFillTransaction;
console.log('filled at', fill?.type === 'ORDER_FILL' ? fill.price : 'not filled', 'as transaction', fill?.id);

engine.execute(ACCOUNT, {
  type: 'CREATE_ORDER',
  order: { type: 'LIMIT', instrument: 'USD_JPY', units: '-5000', price: '150.500', timeInForce: 'GTC' },
});

engine.transactions$(ACCOUNT).subscribe((tx) => {
  if (tx.type === 'ORDER_FILL') console.log(tx.time, tx.type, tx.reason, tx.units, '@', tx.price, 'pl', tx.pl);
});
await engine.run(ticks.slice(next));

const summary = accountSummaryView(engine.account(ACCOUNT)!.state);
console.log('balance', summary.balance, 'NAV', summary.NAV, 'open trades', summary.openTradeCount, 'pending', summary.pendingOrderCount);
console.log('transactions', summary.lastTransactionID, 'config digest', engine.info.configDigest.slice(0, 12));
