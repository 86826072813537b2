import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, harness, type Harness } from '../support/api/harness.js';

/**
 * v20's field limits over HTTP: 128 characters for a client extension id, tag or comment and for
 * an alias (src/domain/limits.ts). One more is a 400 with the field's reject reason as errorCode,
 * the *_REJECT transaction echoes the value cut to 128 characters, and nothing else changes.
 */

let h: Harness;
afterEach(async () => h.app.close());

const A = `/v3/accounts/${ACCOUNT}`;

describe('field limits', () => {
  it('refuses a 10,000-character alias with CLIENT_CONFIGURE_REJECT ALIAS_INVALID and keeps neither it nor the old alias changed', async () => {
    h = await harness();
    expect((await h.request('PATCH', `${A}/configuration`, { alias: 'kept' })).statusCode).toBe(200);
    const r = await h.request('PATCH', `${A}/configuration`, { alias: 'x'.repeat(10_000) });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body['errorCode']).toBe('ALIAS_INVALID');
    expect(body['clientConfigureRejectTransaction']).toMatchObject({ type: 'CLIENT_CONFIGURE_REJECT', rejectReason: 'ALIAS_INVALID' });
    expect(body['clientConfigureRejectTransaction']['alias']).toBe('x'.repeat(128));
    expect((await h.request('GET', `${A}/summary`)).json()['account']['alias']).toBe('kept');
    const id = body['lastTransactionID'] as string;
    expect((await h.request('GET', `${A}/transactions/${id}`)).body.length).toBeLessThan(1000);
  });

  it('refuses a 129-character order comment and trade tag with the CLIENT_ORDER / CLIENT_TRADE reasons, echoed cut', async () => {
    h = await harness();
    const order = await h.request('POST', `${A}/orders`, {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '10', clientExtensions: { comment: 'c'.repeat(129) } },
    });
    expect(order.statusCode).toBe(400);
    expect(order.json()['errorCode']).toBe('CLIENT_ORDER_COMMENT_INVALID');
    expect(order.json()['orderRejectTransaction']['clientExtensions']).toEqual({ comment: 'c'.repeat(128) });
    expect((await h.request('GET', `${A}/openTrades`)).json()['trades']).toEqual([]);

    const opened = await h.request('POST', `${A}/orders`, {
      order: { type: 'MARKET', instrument: 'EUR_USD', units: '10', tradeClientExtensions: { tag: 't'.repeat(128) } },
    });
    expect(opened.statusCode).toBe(201);
    const tradeID = opened.json()['orderFillTransaction']['tradeOpened']['tradeID'] as string;
    const modify = await h.request('PUT', `${A}/trades/${tradeID}/clientExtensions`, { clientExtensions: { tag: 'u'.repeat(129) } });
    expect(modify.statusCode).toBe(400);
    expect(modify.json()['errorCode']).toBe('CLIENT_TRADE_TAG_INVALID');
    expect((await h.request('GET', `${A}/trades/${tradeID}`)).json()['trade']['clientExtensions']).toEqual({ tag: 't'.repeat(128) });
  });
});
