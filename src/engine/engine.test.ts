import { describe, expect, it } from 'vitest';
import { lastValueFrom, toArray, take } from 'rxjs';
import { createEngine } from './engine.js';
import { generateTicks, generatedTicks$, ticksFromArray$ } from './feeds/index.js';
import { MemoryJournal } from '../journal/journal.js';
import { accountView } from '../account/views.js';
import type { Tick } from '../domain/tick.js';

const ID = '101-004-1234567-001';
const T0 = Date.UTC(2024, 0, 2, 12) * 1000;

function tick(time: number, bid: number, ask: number, instrument = 'EUR_USD'): Tick {
  return { instrument, time, bid, ask };
}

describe('createEngine', () => {
  it('opens accounts with CREATE and the opening deposit', () => {
    const engine = createEngine({ accounts: [{ id: ID, currency: 'USD', balance: '5000', alias: 'demo' }], start: T0 });
    const log = engine.account(ID)?.log.slice() ?? [];
    expect(log.map((t) => t.type)).toEqual(['CREATE', 'TRANSFER_FUNDS', 'CLIENT_CONFIGURE']);
    expect(log[1]).toMatchObject({ amount: '5000.0000', accountBalance: '5000.0000', fundingReason: 'CLIENT_FUNDING' });
    expect(log[0]?.time).toBe('2024-01-02T12:00:00.000000000Z');
  });

  it('routes quotes to accounts, fills resting orders and streams transactions in order', async () => {
    const engine = createEngine({ accounts: [{ id: ID, currency: 'USD' }], start: T0 });
    const seen = lastValueFrom(engine.transactions$(ID).pipe(take(2), toArray()));
    engine.pushTick(tick(T0 + 1, 1.1, 1.1001));
    const created = engine.execute(ID, {
      type: 'CREATE_ORDER',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.09990' },
    });
    expect(created.response['orderCreateTransaction']?.type).toBe('LIMIT_ORDER');
    await engine.run(ticksFromArray$([tick(T0 + 2, 1.0999, 1.1), tick(T0 + 3, 1.0998, 1.0999)]));
    const streamed = await seen;
    expect(streamed.map((t) => t.type)).toEqual(['LIMIT_ORDER', 'ORDER_FILL']);
    expect(streamed[1]).toMatchObject({ price: '1.09990', reason: 'LIMIT_ORDER', time: '2024-01-02T12:00:00.000003000Z' });
  });

  it('refuses quotes that go back in time', () => {
    const engine = createEngine({ accounts: [{ id: ID, currency: 'USD' }], start: T0 });
    engine.pushTick(tick(T0 + 10, 1.1, 1.1001));
    expect(() => engine.pushTick(tick(T0 + 5, 1.1, 1.1001))).toThrow(/older than the clock/);
  });

  it('expires GTD orders when the clock passes their time, without a quote', () => {
    const engine = createEngine({ accounts: [{ id: ID, currency: 'USD' }], start: T0 });
    engine.pushTick(tick(T0 + 1, 1.1, 1.1001));
    const out = engine.execute(ID, {
      type: 'CREATE_ORDER',
      order: { type: 'LIMIT', instrument: 'EUR_USD', units: '100', price: '1.05000', timeInForce: 'GTD', gtdTime: '2024-01-02T13:00:00Z' },
    });
    expect(out.reject).toBeUndefined();
    engine.advanceTo(T0 + 3_600_000_000 + 1);
    const last = engine.account(ID)?.log.at(-1);
    expect(last).toMatchObject({ type: 'ORDER_CANCEL', reason: 'TIME_IN_FORCE_EXPIRED', time: '2024-01-02T13:00:00.000000000Z' });
  });

  it('rebuilds identical state from its journal', async () => {
    const journal = new MemoryJournal();
    const config = { accounts: [{ id: ID, currency: 'USD' }], start: T0, journal };
    const engine = createEngine(config);
    const ticks = [...generateTicks({ seed: 7, instruments: ['EUR_USD'], start: T0, count: 3000 })];
    let i = 0;
    for (const t of ticks) {
      engine.pushTick(t);
      i += 1;
      if (i % 100 === 0) {
        const units = i % 200 === 0 ? '1000' : '-700';
        engine.execute(ID, {
          type: 'CREATE_ORDER',
          order: {
            type: 'MARKET',
            instrument: 'EUR_USD',
            units,
            takeProfitOnFill: { price: (t.bid + (units.startsWith('-') ? -0.0005 : 0.0005)).toFixed(5) },
          },
        });
      }
    }
    const restored = createEngine({ ...config });
    const last = ticks.at(-1) as Tick;
    restored.pushTick(last);
    const live = engine.account(ID);
    const again = restored.account(ID);
    expect(again?.log.length).toBe(live?.log.length);
    expect(JSON.stringify(accountView(again!.state))).toBe(JSON.stringify(accountView(live!.state)));
  });

  it('consumes a seeded generator Observable deterministically', async () => {
    const runOnce = async (): Promise<string> => {
      const journal = new MemoryJournal();
      const engine = createEngine({ accounts: [{ id: ID, currency: 'USD' }], start: T0, journal, seed: 42 });
      engine.execute(ID, { type: 'CREATE_ORDER', order: { type: 'STOP', instrument: 'EUR_USD', units: '10', price: '1.09000' } });
      await engine.run(generatedTicks$({ seed: 42, instruments: ['EUR_USD', 'USD_JPY'], start: T0, count: 2000 }));
      return journal.text(ID);
    };
    expect(await runOnce()).toBe(await runOnce());
  });
});
