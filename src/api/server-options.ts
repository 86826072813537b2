import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { timeoutCheckInterval, type ApiLimits } from './limits.js';

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

/** Fastify's server options for the limits' timeouts; none without limits (Node's and Fastify's defaults). */
export function timeoutOptions(limits: ApiLimits | undefined): {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
} {
  if (limits === undefined) return {};
  const requestTimeout = limits.requestTimeoutMs ?? 0;
  // Node refuses a headers timeout beyond the request timeout.
  const headersTimeout =
    requestTimeout > 0 ? Math.min(limits.headersTimeoutMs ?? requestTimeout, requestTimeout) : (limits.headersTimeoutMs ?? 60_000);
  const idle = limits.idleTimeoutMs ?? 0;
  const out: ReturnType<typeof timeoutOptions> = {
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: timeoutCheckInterval(limits) },
    requestTimeout,
  };
  if (idle > 0) {
    out.keepAliveTimeout = idle;
    out.connectionTimeout = idle;
  }
  return out;
}
