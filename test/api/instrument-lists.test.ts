import { describe, expect, it } from 'vitest';
import { call, ids, open, useTradesServer } from './trades-server.js';

useTradesServer();

/** GET trades and GET orders with `instrument=A,B` (oandapyV20's TradesList fixture sends it): each instrument listed. */
describe('instrument lists in GET trades and GET orders', () => {
  it('lists the trades of every instrument named, newest first, and keeps the list in the next-page link', async () => {
    const a = await open('100', 'EUR_USD');
    const b = await open('-10', 'USD_JPY');
    const c = await open('-20', 'USD_JPY');
    const d = await open('300', 'EUR_USD');
    expect(ids((await call('GET', '/trades?instrument=EUR_USD,USD_JPY')).body)).toEqual([d, c, b, a]);
    expect(ids((await call('GET', '/trades?instrument=GBP_USD,USD_JPY')).body)).toEqual([c, b]);
    expect(ids((await call('GET', '/trades?instrument=EUR_USD')).body)).toEqual([d, a]);
    const page = await call('GET', '/trades?instrument=USD_JPY,EUR_USD&count=2');
    expect(ids(page.body)).toEqual([d, c]);
    expect(String(page.headers['link'])).toContain('instrument=USD_JPY%2CEUR_USD');
  });

  it('GET orders takes the same list', async () => {
    const eur = await call('POST', '/orders', { order: { type: 'LIMIT', instrument: 'EUR_USD', units: '10', price: '1.00000' } });
    const jpy = await call('POST', '/orders', { order: { type: 'LIMIT', instrument: 'USD_JPY', units: '10', price: '100.000' } });
    const gbp = await call('POST', '/orders', { order: { type: 'LIMIT', instrument: 'GBP_USD', units: '10', price: '1.00000' } });
    const created = [eur, jpy, gbp].map((r) => (r.body['orderCreateTransaction'] as { id: string }).id);
    const listed = await call('GET', '/orders?instrument=GBP_USD,EUR_USD');
    expect((listed.body['orders'] as { id: string }[]).map((o) => o.id)).toEqual([created[2], created[0]]);
  });

  it('refuses a malformed list with v20 400, naming the parameter', async () => {
    for (const bad of ['EUR_USD,', ',EUR_USD', 'EUR_USD,,USD_JPY', 'EUR_USD;USD_JPY']) {
      const r = await call('GET', `/trades?instrument=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(String(r.body['errorMessage'])).toContain('instrument');
    }
  });
});
