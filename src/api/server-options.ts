import { STATUS_CODES, createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { timeoutCheckInterval, type ApiLimits } from './limits.js';
import type { ConnectionGuard } from './plugins/connection-limits.js';

/** What an HTTP server refused before Fastify saw a request, as status and v20 errorMessage. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request was not received in time'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers are too large'];
  return [400, 'The request is not valid HTTP'];
}

/**
 * Node's own refusals (malformed request lines and headers, oversized headers, the headers and
 * request timeouts) answered with a v20 error body and a RequestID instead of Node's or Fastify's
 * own text, then the connection is closed: after a framing error nothing more on it can be read.
 */
export function v20ClientError(nextRequestId: () => string): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = clientErrorAnswer(error.code);
    const body = JSON.stringify({ errorMessage: message });
    const head = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `RequestID: ${nextRequestId()}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  };
}

/** Node's HTTP server options for the limits' timeouts. */
export function httpOptions(limits: ApiLimits | undefined): ServerOptions {
  // The Host check answers a missing Host with a v20 400 (Node's own 400 has no body).
  if (limits === undefined) return { requireHostHeader: false };
  const requestTimeout = limits.requestTimeoutMs ?? 0;
  // Node refuses a headers timeout beyond the request timeout.
  const headersTimeout =
    requestTimeout > 0 ? Math.min(limits.headersTimeoutMs ?? requestTimeout, requestTimeout) : (limits.headersTimeoutMs ?? 60_000);
  return { requireHostHeader: false, headersTimeout, requestTimeout, connectionsCheckingInterval: timeoutCheckInterval(limits) };
}

/** Fastify's own defaults, kept when there are no limits: keep-alive for 72 s, no request timeout. */
const FASTIFY_KEEP_ALIVE_MS = 72_000;

/**
 * Every HTTP server an app listens with (Fastify opens one per address when a host name resolves
 * to several, with this same factory): the timeouts, the connection cap, the new-connection rate,
 * and Node's refusals as v20 bodies. Fastify adds its clientError handler (v20ClientError, given
 * as its clientErrorHandler) to the first server only, so the others get it here.
 */
export function serverFactory(
  limits: ApiLimits | undefined,
  guard: ConnectionGuard | undefined,
  clientError: (error: Error & { code?: string }, socket: Socket) => void,
): (handler: RequestListener, options: unknown) => Server {
  let created = 0;
  return (handler) => {
    const server = createServer(httpOptions(limits), handler);
    const idle = limits?.idleTimeoutMs ?? 0;
    server.keepAliveTimeout = idle > 0 ? idle : FASTIFY_KEEP_ALIVE_MS;
    server.requestTimeout = limits?.requestTimeoutMs ?? 0;
    server.setTimeout(idle);
    const maxConnections = limits?.maxConnections ?? 0;
    if (maxConnections > 0) server.maxConnections = maxConnections;
    guard?.attach(server);
    if (created > 0) server.on('clientError', clientError);
    created += 1;
    return server;
  };
}
