/**
 * Raw HTTP over node:net for the hardening tests: what a well-behaved client library would never
 * send (malformed headers, absolute-form request lines, pipelined bursts, idle sockets).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApi, type TestApi, type TestApiOptions } from '../support/api/harness.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A test API listening on 127.0.0.1 with its port. */
export async function listeningApi(options: TestApiOptions = {}): Promise<{ api: TestApi; port: number }> {
  const api = await createTestApi(options);
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  return { api, port: (api.app.server.address() as AddressInfo).port };
}

/** Splits raw HTTP/1.1 bytes into responses (Content-Length framed, as every non-stream answer here is). */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? '0');
    const bodyStart = end + 4;
    if (Buffer.byteLength(rest.slice(bodyStart)) < length) return out;
    const body = Buffer.from(rest.slice(bodyStart)).subarray(0, length).toString();
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = Buffer.from(rest.slice(bodyStart)).subarray(length).toString();
  }
}

/**
 * Sends `text` on a fresh connection and collects what comes back until `expected` responses have
 * arrived (then hangs up) or the server closes the connection (`expected` Infinity: only that).
 */
export function rawExchange(port: number, text: string, expected = 1): Promise<{ responses: RawResponse[]; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ responses: parseResponses(received), closedByServer });
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (parseResponses(received).length >= expected) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (done ? undefined : reject(error)));
  });
}

/** A GET request line and headers as raw text. */
export function rawGet(path: string, headers: Record<string, string>): string {
  return `GET ${path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
}

/** Polls `check` every few milliseconds until it holds; the test's own timeout bounds the wait. */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  for (;;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
