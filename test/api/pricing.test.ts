import { afterEach, describe, expect, it } from 'vitest';
import { formatRfc3339, formatUnix } from '../../src/domain/time.js';
import { ACCOUNT, SECOND_ACCOUNT as OTHER, T0 as START, harness, type Harness, type JsonBody } from '../support/api/harness.js';

const PRICING = `/v3/accounts/${ACCOUNT}/pricing`;
/** Prices alone: without the deprecated per-account fields (the tests below them show those). */
const BARE = 'includeUnitsAvailable=false&includeHomeConversions=false';

let h: Harness;
afterEach(async () => h.app.close());

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: JsonBody }> {
  const res = await h.request('GET', url, undefined, headers);
  return { status: res.statusCode, body: res.json() };
}

function price(instrument: string, time: number, bid: string, ask: string, closeoutBid = bid, closeoutAsk = ask): JsonBody {
  return {
    type: 'PRICE',
    instrument,
    time: formatRfc3339(time),
    status: 'tradeable',
    tradeable: true,
    bids: [{ price: bid, liquidity: 10000000 }],
    asks: [{ price: ask, liquidity: 10000000 }],
    closeoutBid,
    closeoutAsk,
  };
}

describe('GET pricing', () => {
  it('returns the latest quote of each instrument asked for, at display precision, and the time', async () => {
    h = await harness();
    // The harness quoted EUR_USD at START + 1 s and USD_JPY at START + 2 s.
    const res = await get(`${PRICING}?instruments=USD_JPY,EUR_USD,GBP_USD&${BARE}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      prices: [price('USD_JPY', START + 2_000_000, '150.000', '150.020'), price('EUR_USD', START + 1_000_000, '1.10000', '1.10020')],
      time: formatRfc3339(START + 2_000_000),
    });
    // Float noise is rounded onto the grid; closeout prices come from the quote when it has them.
    h.engine.pushTick({
      instrument: 'EUR_USD',
      time: START + 3_000_000,
      bid: 1.1000499999999,
      ask: 1.10025000001,
      closeoutBid: 1.09995,
      closeoutAsk: 1.1003,
    });
    const next = await get(`${PRICING}?instruments=EUR_USD&${BARE}`);
    expect(next.body['prices']).toEqual([price('EUR_USD', START + 3_000_000, '1.10005', '1.10025', '1.09995', '1.10030')]);
  });

  it('with since returns only instruments quoted after it', async () => {
    h = await harness();
    const all = `${PRICING}?${BARE}&instruments=EUR_USD,USD_JPY`;
    const mid = (await get(`${all}&since=${formatRfc3339(START + 1_000_000)}`)).body;
    expect(mid['prices'].map((p: JsonBody) => p['instrument'])).toEqual(['USD_JPY']);
    const first = (await get(all)).body;
    expect((await get(`${all}&since=${first['time']}`)).body['prices']).toEqual([]);
    h.quote('EUR_USD', 1.2, 1.2002);
    const after = (await get(`${all}&since=${first['time']}`)).body;
    expect(after['prices']).toEqual([price('EUR_USD', h.engine.now, '1.20000', '1.20020')]);
    expect(after['time']).toBe(formatRfc3339(h.engine.now));
    // UNIX in and out.
    const unix = (await get(`${all}&since=${formatUnix(START)}`, { 'Accept-Datetime-Format': 'UNIX' })).body;
    expect(unix['time']).toBe(formatUnix(h.engine.now));
    expect(unix['prices'].map((p: JsonBody) => p['time'])).toEqual([formatUnix(h.engine.now), formatUnix(START + 2_000_000)]);
  });

  it('adds home conversions on request', async () => {
    h = await harness();
    const usd = (await get(`${PRICING}?instruments=EUR_USD&includeHomeConversions=true`)).body;
    expect(usd['homeConversions']).toEqual([
      // gains at mid x 0.995, losses at mid x 1.005 (the default conversion fee), values at mid
      { currency: 'EUR', accountGain: '1.09459950', accountLoss: '1.10560050', positionValue: '1.10010000' },
      { currency: 'USD', accountGain: '1', accountLoss: '1', positionValue: '1' },
    ]);
    // One entry per currency of the instruments asked for, each once, in the order they appear.
    const both = (await get(`${PRICING}?instruments=USD_JPY,EUR_USD&includeHomeConversions=True`)).body;
    expect(both['homeConversions'].map((c: JsonBody) => c['currency'])).toEqual(['USD', 'JPY', 'EUR']);
    expect(both['homeConversions'][1]).toEqual({
      currency: 'JPY',
      accountGain: '0.00663289',
      accountLoss: '0.00669955',
      positionValue: '0.00666622',
    });
    const eur = (await get(`/v3/accounts/${OTHER}/pricing?instruments=EUR_USD&includeHomeConversions=true`)).body;
    expect(eur['homeConversions'][0]).toEqual({ currency: 'EUR', accountGain: '1', accountLoss: '1', positionValue: '1' });
    expect((await get(`${PRICING}?instruments=EUR_USD&includeHomeConversions=false`)).body['homeConversions']).toBeUndefined();
  });

  it('prints the quote currency home conversion factors on each price unless includeHomeConversions is sent', async () => {
    h = await harness();
    const prices = (await get(`${PRICING}?instruments=EUR_USD,USD_JPY&includeUnitsAvailable=false`)).body['prices'];
    // A positive amount of the quote currency converts at the gain factor, a negative one at the loss factor.
    expect(prices.map((p: JsonBody) => p['quoteHomeConversionFactors'])).toEqual([
      { positiveUnits: '1', negativeUnits: '1' },
      { positiveUnits: '0.00663289', negativeUnits: '0.00669955' },
    ]);
    for (const flag of ['true', 'false']) {
      const body = (await get(`${PRICING}?instruments=EUR_USD&includeHomeConversions=${flag}`)).body;
      expect(body['prices'][0]['quoteHomeConversionFactors']).toBeUndefined();
    }
  });

  it('prints unitsAvailable by default: exactly what a MARKET order can trade, reductions included', async () => {
    h = await harness();
    const units = async (): Promise<JsonBody> =>
      (await get(`${PRICING}?instruments=EUR_USD`)).body['prices'][0]['unitsAvailable'] as JsonBody;
    // 100,000 USD / (mid 1.1001 x margin rate 0.0333) = 2729754.57..., rounded down to whole units.
    expect(await units()).toEqual({
      default: { long: '2729754', short: '2729754' },
      reduceFirst: { long: '2729754', short: '2729754' },
      reduceOnly: { long: '0', short: '0' },
      openOnly: { long: '2729754', short: '2729754' },
    });
    const order = async (n: string): Promise<JsonBody> =>
      (await h.request('POST', `/v3/accounts/${ACCOUNT}/orders`, { order: { type: 'MARKET', instrument: 'EUR_USD', units: n } })).json();
    expect((await order('2729755'))['orderCancelTransaction']['reason']).toBe('INSUFFICIENT_MARGIN');
    expect((await order('10000'))['orderFillTransaction']['units']).toBe('10000');
    const after = await units();
    expect(after['reduceOnly']).toEqual({ long: '0', short: '10000' });
    expect(after['openOnly']['short']).toBe('0');
    const sellFirst = after['reduceFirst']['short'] as string;
    expect(after['default']['short']).toBe(sellFirst);
    expect((await order(`-${Number(sellFirst) + 1}`))['orderCancelTransaction']['reason']).toBe('INSUFFICIENT_MARGIN');
    expect((await order(`-${sellFirst}`))['orderFillTransaction']['units']).toBe(`-${sellFirst}`);
    // A hedging account's DEFAULT is OPEN_ONLY.
    const hedged = (await get(`/v3/accounts/${OTHER}/pricing?instruments=EUR_USD`)).body['prices'][0]['unitsAvailable'];
    expect(hedged['default']).toEqual(hedged['openOnly']);
    expect((await get(`${PRICING}?instruments=EUR_USD&includeUnitsAvailable=False`)).body['prices'][0]['unitsAvailable']).toBeUndefined();
  });

  it('refuses missing or unknown instruments and an unreadable since', async () => {
    h = await harness();
    const invalid = (field: string): { status: number; body: JsonBody } => ({
      status: 400,
      body: { errorMessage: `Invalid value specified for '${field}'` },
    });
    expect(await get(PRICING)).toEqual(invalid('instruments'));
    expect(await get(`${PRICING}?instruments=EUR_USD,XAU_XXX`)).toEqual(invalid('instruments'));
    expect(await get(`${PRICING}?instruments=`)).toEqual(invalid('instruments'));
    expect(await get(`${PRICING}?instruments=EUR_USD&since=soon`)).toEqual(invalid('since'));
    expect(await get(`${PRICING}?instruments=EUR_USD&includeHomeConversions=yes`)).toEqual(invalid('includeHomeConversions'));
    expect(await get(`${PRICING}?instruments=EUR_USD&includeUnitsAvailable=1`)).toEqual(invalid('includeUnitsAvailable'));
    const noToken = await h.app.inject({ method: 'GET', url: `${PRICING}?instruments=EUR_USD` });
    expect(noToken.statusCode).toBe(401);
  });
});
