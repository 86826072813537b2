/**
 * The operations of requests with a body run together at the end of the event loop's turn
 * (src/api/turn-queue.ts). What must hold: they run in the order their handlers were called, each
 * answer reaches its own request, an operation that throws is answered with its error, and a
 * request whose handler starts while operations are queued runs them first.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiContext } from '../../src/api/context.js';
import { callOf } from '../../src/api/http-call.js';
import { TurnQueue } from '../../src/api/turn-queue.js';
import type { AccountView } from '../../src/engine/engine.js';
import type { V20Response } from '../../src/v3/response.js';
import { V20Error } from '../../src/v3/errors.js';
import { ACCOUNT, ADMIN_TOKEN, T0, TOKEN, type TestApi } from '../support/api/harness.js';
import { buildApp, type App } from '../../src/api/app.js';
import { createEngine } from '../../src/engine/engine.js';
import { MemoryJournal } from '../../src/journal/journal.js';
import type { JournalEntry } from '../../src/domain/journal-entry.js';
import type { AddressInfo } from 'node:net';
import { listeningApi, rawExchange } from '../hardening/raw-http.js';

/** A reply that records what it was sent. */
function fakeReply(sent: unknown[], label: string): FastifyReply {
  return { send: (payload: unknown) => void sent.push([label, payload]) } as unknown as FastifyReply;
}

const answer = (body: string): V20Response => ({ status: 200, body: { body } });
const printed = (_reply: FastifyReply, response: V20Response): string => JSON.stringify(response.body);
const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnQueue', () => {
  it('runs the queued operations in order at the end of the turn and sends each answer to its own reply', async () => {
    const queue = new TurnQueue(printed);
    const ran: string[] = [];
    const sent: unknown[] = [];
    for (const label of ['a', 'b', 'c']) {
      queue.add(fakeReply(sent, label), () => {
        ran.push(label);
        return answer(label);
      });
    }
    expect(ran).toEqual([]);
    expect(queue.size).toBe(3);
    await turnEnd();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(sent).toEqual([
      ['a', '{"body":"a"}'],
      ['b', '{"body":"b"}'],
      ['c', '{"body":"c"}'],
    ]);
    expect(queue.size).toBe(0);
  });

  it('answers an operation that throws with its error, and the others as usual', async () => {
    const queue = new TurnQueue(printed);
    const sent: unknown[] = [];
    const refusal = new V20Error(404, { errorMessage: 'The Order specified does not exist' });
    queue.add(fakeReply(sent, 'a'), () => answer('a'));
    queue.add(fakeReply(sent, 'b'), () => {
      throw refusal;
    });
    queue.add(fakeReply(sent, 'c'), () => answer('c'));
    await turnEnd();
    expect(sent).toEqual([
      ['a', '{"body":"a"}'],
      ['b', refusal],
      ['c', '{"body":"c"}'],
    ]);
  });

  it('drains at once when asked; an operation that drains finds the queue empty; the turn then ends with nothing to run', async () => {
    const queue = new TurnQueue(printed);
    const ran: string[] = [];
    const sent: unknown[] = [];
    queue.add(fakeReply(sent, 'a'), () => {
      ran.push('a');
      queue.drain(); // as callOf does inside a queued operation
      return answer('a');
    });
    queue.add(fakeReply(sent, 'b'), () => {
      ran.push('b');
      return answer('b');
    });
    queue.drain();
    expect(ran).toEqual(['a', 'b']);
    expect(sent).toHaveLength(2);
    // Queued after the early drain, in the same turn: run by the turn's end, once.
    queue.add(fakeReply(sent, 'c'), () => {
      ran.push('c');
      return answer('c');
    });
    await turnEnd();
    await turnEnd();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(sent).toHaveLength(3);
  });

  it('is drained by callOf before a request that started later gets its call', () => {
    const queue = new TurnQueue(printed);
    const ran: string[] = [];
    queue.add(fakeReply([], 'order'), () => {
      ran.push('order');
      return answer('order');
    });
    const context = { engine: {}, options: {}, turn: queue, now: () => 0 } as unknown as ApiContext;
    const request = { v20Account: { id: ACCOUNT } as AccountView, v20RequestId: '1' } as unknown as FastifyRequest;
    const call = callOf(context, request);
    expect(ran).toEqual(['order']);
    expect(call.accountID).toBe(ACCOUNT);
  });
});

let api: TestApi | undefined;
let app: App | undefined;
afterEach(async () => {
  await api?.close();
  await app?.close();
  api = undefined;
  app = undefined;
});

/** A journal that refuses every append once `failing` is set, as a full disk would. */
class FailingJournal extends MemoryJournal {
  failing = false;

  override append(accountId: string, entries: readonly JournalEntry[]): void {
    if (this.failing) throw new Error('ENOSPC: no space left on device, write');
    super.append(accountId, entries);
  }
}

function rawPost(path: string, token: string, body: string): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

describe('requests of one turn, over HTTP', () => {
  it('an order, then a tick pushed in the same pipelined write: the order fills at the price it was sent against', async () => {
    const server = await listeningApi();
    api = server.api;
    const order = JSON.stringify({ order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
    const tick = JSON.stringify({ ticks: [{ instrument: 'EUR_USD', bid: '1.2000', ask: '1.2002' }] });
    const { responses } = await rawExchange(
      server.port,
      rawPost(`/v3/accounts/${ACCOUNT}/orders`, TOKEN, order) + rawPost('/sim/ticks', ADMIN_TOKEN, tick),
      2,
    );
    expect(responses.map((r) => r.status)).toEqual([201, 200]);
    const fill = (JSON.parse(responses[0]?.body ?? '{}') as { orderFillTransaction?: { price: string } }).orderFillTransaction;
    expect(fill?.price).toBe('1.10020');
    expect(JSON.parse(responses[1]?.body ?? '{}')).toMatchObject({ pushed: 1 });
  });

  it('orders, a close and a replace pipelined on one connection run in the order sent', async () => {
    const server = await listeningApi();
    api = server.api;
    const orders = `/v3/accounts/${ACCOUNT}/orders`;
    const last = Number(server.api.engine.account(ACCOUNT)?.state.lastTransactionID);
    const market = JSON.stringify({ order: { type: 'MARKET', instrument: 'EUR_USD', units: '100' } });
    const limit = JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: '5', price: '1.00000' } });
    const replacement = JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: '6', price: '1.00000' } });
    // The MARKET's fill opens trade last+2; the LIMIT is order last+3; the close is sent with a body.
    const text =
      rawPost(orders, TOKEN, market) +
      rawPost(orders, TOKEN, limit) +
      rawPost(`/v3/accounts/${ACCOUNT}/trades/${last + 2}/close`, TOKEN, '{"units":"ALL"}').replace('POST', 'PUT') +
      rawPost(`${orders}/${last + 3}`, TOKEN, replacement).replace('POST', 'PUT');
    const { responses } = await rawExchange(server.port, text, 4);
    expect(responses.map((r) => r.status)).toEqual([201, 201, 200, 201]);
    const bodies = responses.map((r) => JSON.parse(r.body) as Record<string, { id?: string; tradesClosed?: unknown[] }>);
    expect(bodies[0]?.['orderFillTransaction']?.id).toBe(String(last + 2));
    expect(bodies[1]?.['orderCreateTransaction']?.id).toBe(String(last + 3));
    expect(bodies[2]?.['orderFillTransaction']?.tradesClosed).toHaveLength(1);
    expect(bodies[3]?.['orderCancelTransaction']).toMatchObject({ orderID: String(last + 3) });
  });

  it('an order whose journal write fails is answered 500 with a v20 body; the requests around it are answered as usual', async () => {
    const journal = new FailingJournal();
    const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }], start: T0, journal });
    engine.pushTick({ instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1002 });
    app = await buildApp({ engine, tokens: [{ token: TOKEN, accounts: '*' }] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const order = JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: '5', price: '1.00000' } });
    const orders = `/v3/accounts/${ACCOUNT}/orders`;
    journal.failing = true;
    const failed = await rawExchange(port, rawPost(orders, TOKEN, order), 1);
    expect(failed.responses.map((r) => r.status)).toEqual([500]);
    expect(JSON.parse(failed.responses[0]?.body ?? '{}')).toEqual({ errorMessage: 'An internal server error occurred' });
    journal.failing = false;
    const after = await rawExchange(port, rawPost(orders, TOKEN, order), 1);
    expect(after.responses.map((r) => r.status)).toEqual([201]);
  });
});
