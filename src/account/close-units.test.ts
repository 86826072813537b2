import { describe, expect, it } from 'vitest';
import { Sim } from './test-helpers.js';

/** Close units as v20 prints them (src/orders/echo.ts unitsText). */
describe('close units as v20 prints them', () => {
  it('a trade close of "+50" and a position close of "25.0" show "50" and "25"; ALL stays ALL', () => {
    const sim = new Sim();
    sim.quote('EUR_USD', 1.1, 1.1002);
    const trade = sim.openTrade('EUR_USD', '100');
    const closed = sim.exec({ type: 'CLOSE_TRADE', tradeSpecifier: String(trade), units: '+50' });
    expect(closed.response['orderCreateTransaction']).toMatchObject({ units: '-50', tradeClose: { units: '50' } });
    const position = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: '25.0' });
    expect(position.response['longOrderCreateTransaction']).toMatchObject({ longPositionCloseout: { units: '25' } });
    const all = sim.exec({ type: 'CLOSE_POSITION', instrument: 'EUR_USD', longUnits: 'ALL' });
    expect(all.response['longOrderCreateTransaction']).toMatchObject({ longPositionCloseout: { units: 'ALL' } });
  });
});
