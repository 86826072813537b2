import { describe, expect, it } from 'vitest';
import { tickOfStreamLine } from './tick-record.js';

describe('a pricing stream line as a tick line', () => {
  it('keeps the best prices, closeouts and every liquidity level, as v20 printed them', () => {
    const line = JSON.stringify({
      type: 'PRICE',
      instrument: 'EUR_USD',
      time: '2024-01-02T00:00:01.250000000Z',
      bids: [
        { price: '1.10000', liquidity: 1_000_000 },
        { price: '1.09990', liquidity: 5_000_000 },
      ],
      asks: [{ price: '1.10020', liquidity: '1000000' }],
      closeoutBid: '1.09990',
      closeoutAsk: '1.10030',
      status: 'tradeable',
      tradeable: true,
    });
    const tick = tickOfStreamLine(line);
    expect(tick?.at).toBe(Date.UTC(2024, 0, 2, 0, 0, 1, 250) * 1000);
    expect(JSON.parse(tick?.line ?? '')).toEqual({
      instrument: 'EUR_USD',
      time: '2024-01-02T00:00:01.250000000Z',
      bid: '1.10000',
      ask: '1.10020',
      closeoutBid: '1.09990',
      closeoutAsk: '1.10030',
      bids: [
        { price: '1.10000', liquidity: 1_000_000 },
        { price: '1.09990', liquidity: 5_000_000 },
      ],
      asks: [{ price: '1.10020', liquidity: '1000000' }],
    });
  });

  it('is no tick for heartbeats, other lines, and prices with an empty side', () => {
    expect(tickOfStreamLine('{"type":"HEARTBEAT","time":"2024-01-02T00:00:00.000000000Z"}')).toBeUndefined();
    expect(tickOfStreamLine('not json')).toBeUndefined();
    expect(
      tickOfStreamLine('{"type":"PRICE","instrument":"EUR_USD","time":"2024-01-02T00:00:00Z","bids":[],"asks":[{"price":"1.1"}]}'),
    ).toBeUndefined();
  });
});
