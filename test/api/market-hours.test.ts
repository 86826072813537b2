import { describe, expect, it } from 'vitest';
import { createMarketData } from '../../src/api/market.js';
import { parseDateTime, type Micros } from '../../src/domain/time.js';
import { createEngine } from '../../src/engine/engine.js';
import { clientPrice } from '../../src/v3/price.js';

const at = (text: string): Micros => parseDateTime(text) as Micros;

describe('market data and the trading calendar', () => {
  it('marks quotes in closed hours, and a session quote once the session is over, as not tradeable', () => {
    const engine = createEngine({
      accounts: [],
      start: at('2024-01-05T12:00:00Z'),
      instruments: [{ name: 'USD_JPY', marketHours: { weekly: 'ALWAYS' } }],
    });
    const market = createMarketData(engine);
    engine.pushTick({ instrument: 'EUR_USD', time: at('2024-01-05T21:00:00Z'), bid: 1.1, ask: 1.1002 });
    const friday = market.latest('EUR_USD');
    if (friday === undefined) throw new Error('no quote');
    expect(clientPrice(friday)).toMatchObject({ tradeable: true, status: 'tradeable' });
    expect(clientPrice(friday, 'RFC3339', at('2024-01-06T00:00:00Z'))).toMatchObject({ tradeable: false, status: 'non-tradeable' });

    engine.pushTick({ instrument: 'EUR_USD', time: at('2024-01-06T12:00:00Z'), bid: 1.09, ask: 1.0902 });
    engine.pushTick({ instrument: 'USD_JPY', time: at('2024-01-06T12:00:01Z'), bid: 145, ask: 145.02 });
    expect(
      clientPrice(market.quoteOf({ instrument: 'EUR_USD', time: at('2024-01-06T12:00:00Z'), bid: 1.09, ask: 1.0902 }) as never),
    ).toMatchObject({
      tradeable: false,
    });
    expect(clientPrice(market.latest('EUR_USD') as never)).toMatchObject({ tradeable: false, bids: [{ price: '1.09000' }] });
    expect(clientPrice(market.latest('USD_JPY') as never)).toMatchObject({ tradeable: true });
    market.close();
  });
});
