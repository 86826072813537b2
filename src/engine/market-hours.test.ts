import { describe, expect, it } from 'vitest';
import { parseDateTime, type Micros } from '../domain/time.js';
import { createEngine } from './engine.js';

const at = (text: string): Micros => parseDateTime(text) as Micros;
const ID = '101-004-1234567-001';
const SATURDAY = at('2024-01-06T12:00:00Z');

function weekendMarketOrder(marketHours?: Parameters<typeof createEngine>[0]['marketHours']): string | undefined {
  const engine = createEngine({ accounts: [{ id: ID, currency: 'USD' }], start: SATURDAY, ...(marketHours ? { marketHours } : {}) });
  engine.pushTick({ instrument: 'EUR_USD', time: SATURDAY + 1, bid: 1.1, ask: 1.1002 });
  const outcome = engine.execute(ID, { type: 'CREATE_ORDER', order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
  return Object.keys(outcome.response).find((k) => k !== 'orderCreateTransaction');
}

describe('the run-wide trading calendar', () => {
  it('closes the FX week by default and opens what the run says', () => {
    expect(weekendMarketOrder()).toBe('orderCancelTransaction');
    expect(weekendMarketOrder({ weekly: 'ALWAYS' })).toBe('orderFillTransaction');
  });

  it('leaves an instrument with its own calendar alone', () => {
    const engine = createEngine({
      accounts: [],
      marketHours: { weekly: 'ALWAYS' },
      instruments: [{ name: 'USD_JPY', marketHours: { weekly: { open: 'MONDAY 09:00', close: 'FRIDAY 15:00' } } }],
    });
    expect(engine.instruments.get('EUR_USD')?.marketHours).toEqual({ weekly: 'ALWAYS' });
    expect(engine.instruments.get('USD_JPY')?.marketHours).toEqual({ weekly: { open: 'MONDAY 09:00', close: 'FRIDAY 15:00' } });
  });

  it('refuses a malformed calendar before the first quote', () => {
    expect(() => createEngine({ accounts: [], marketHours: { weekly: { open: 'SUNDAY 5pm', close: 'FRIDAY 17:00' } } })).toThrow(
      /weekly.open/,
    );
  });
});
