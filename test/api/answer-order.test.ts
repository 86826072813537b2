import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.js';
import { createEngine } from '../../src/engine/engine.js';
import { ACCOUNT, T0 } from '../support/api/harness.js';

/**
 * Answers to requests with a body are written at the end of the event loop's turn (http-call.ts).
 * Over keep-alive and pipelined connections each must still reach its own request, in order.
 */
let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listening(): Promise<{ app: App; port: number }> {
  const engine = createEngine({ accounts: [{ id: ACCOUNT, currency: 'USD', balance: '100000' }], start: T0 });
  engine.pushTick({ instrument: 'EUR_USD', time: T0, bid: 1.1, ask: 1.1002 });
  app = await buildApp({ engine, tokens: [{ token: 'tok', accounts: '*' }] });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}

const ORDERS = `/v3/accounts/${ACCOUNT}/orders`;
const order = (units: number): string =>
  JSON.stringify({ order: { type: 'LIMIT', instrument: 'EUR_USD', units: String(units), price: '1.00000' } });

function post(port: number, agent: Agent, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: ORDERS,
        method: 'POST',
        agent,
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('answers to requests with a body', () => {
  it('reach their own requests when many arrive at once over a few keep-alive connections', async () => {
    const { port } = await listening();
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(port, agent, order(i + 1))));
      for (const [i, a] of answers.entries()) {
        expect(a.status).toBe(201);
        const created = a.json['orderCreateTransaction'] as { units: string; id: string };
        expect(created.units).toBe(String(i + 1));
        expect(a.json['relatedTransactionIDs']).toEqual([created.id]);
      }
      expect(new Set(answers.map((a) => (a.json['orderCreateTransaction'] as { id: string }).id)).size).toBe(40);
    } finally {
      agent.destroy();
    }
  });

  it('come back in request order on a pipelined connection, and a client gone before its answer harms nothing', async () => {
    const { port } = await listening();
    const raw = (bodies: readonly string[]): string =>
      bodies
        .map(
          (b) =>
            `POST ${ORDERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
        )
        .join('');
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        got += chunk;
        if ((got.match(/HTTP\/1\.1 201/g) ?? []).length === 3) {
          socket.end();
          resolve(got);
        }
      });
      socket.on('error', reject);
      socket.write(raw([order(7), order(8), order(9)]));
    });
    expect([...text.matchAll(/"orderCreateTransaction":\{[^}]*?"units":"(\d+)"/g)].map((m) => m[1])).toEqual(['7', '8', '9']);
    // A client that sends an order and closes at once: the order is made, the answer has nowhere to go.
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end(raw([order(11)]));
        socket.destroy();
        setTimeout(resolve, 50);
      });
    });
    const agent = new Agent({ keepAlive: false });
    const after = await post(port, agent, order(12));
    expect(after.status).toBe(201);
    agent.destroy();
  });
});
