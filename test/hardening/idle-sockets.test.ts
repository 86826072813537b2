/**
 * An idle-socket flood: 1,100 sockets that connect and send nothing
 * must not starve a real client. The connection cap turns the ones beyond it away at once, the
 * headers timeout closes the rest, and a real request then gets through. Short timeouts are
 * configured so the test ends quickly; nothing here asserts how long anything took.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT, TOKEN, type TestApi } from '../support/api/harness.js';
import { eventually, listeningApi, parseResponses } from './raw-http.js';

let api: TestApi | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await api?.close();
  api = undefined;
});

/** One GET on a fresh connection: the status, or 0 when the connection was refused or cut. */
function tryRequest(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/v3/accounts/${ACCOUNT}/summary`, headers: { authorization: `Bearer ${TOKEN}` }, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

describe('1,100 idle sockets', () => {
  it('are turned away beyond the cap and closed by the headers timeout; a real client gets through', async () => {
    const server = await listeningApi({
      limits: { maxConnections: 200, headersTimeoutMs: 300, requestTimeoutMs: 1000, idleTimeoutMs: 1000 },
    });
    api = server.api;
    let closed = 0;
    const received: string[] = [];
    const open = (): Promise<void> =>
      new Promise((settled) => {
        const socket = net.connect({ host: '127.0.0.1', port: server.port });
        socket.setEncoding('utf8');
        let text = '';
        socket.on('connect', () => settled());
        socket.on('data', (chunk: string) => {
          text += chunk;
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          closed += 1;
          if (text !== '') received.push(text);
          settled();
        });
        sockets.push(socket);
      });
    // In batches well under the listen backlog, so no SYN is dropped and retried for minutes.
    for (let batch = 0; batch < 11; batch += 1) await Promise.all(Array.from({ length: 100 }, open));
    // The cap and the timeout together free the server for a real request.
    await eventually(async () => (await tryRequest(server.port)) === 200);
    // Every idle socket is eventually closed by the server.
    await eventually(() => closed === 1100);
    expect(server.api.app.server.maxConnections).toBe(200);
    // What an idle socket was told before it was closed is a v20 408, if anything.
    for (const text of received) {
      const [res] = parseResponses(text);
      expect(res?.status).toBe(408);
      expect(JSON.parse(res?.body ?? '')).toEqual({ errorMessage: 'The request was not received in time' });
    }
  });

  it('a keep-alive connection left idle is closed after the idle timeout', async () => {
    const server = await listeningApi({ limits: { idleTimeoutMs: 200, headersTimeoutMs: 1000, requestTimeoutMs: 1000 } });
    api = server.api;
    const socket = net.connect({ host: '127.0.0.1', port: server.port });
    sockets.push(socket);
    let text = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => {
      closed = true;
    });
    socket.write(`GET /v3/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
    await eventually(() => closed);
    expect(parseResponses(text)[0]?.status).toBe(200);
  });
});
