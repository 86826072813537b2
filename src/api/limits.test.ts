import { describe, expect, it } from 'vitest';
import { SERVE_LIMITS, timeoutCheckInterval } from './limits.js';
import { httpOptions, serverFactory } from './server-options.js';

describe('timeout options', () => {
  it('check often enough for the shortest timeout, never more often than every 10 ms', () => {
    expect(timeoutCheckInterval({ headersTimeoutMs: 400, requestTimeoutMs: 1000 })).toBe(100);
    expect(timeoutCheckInterval({ headersTimeoutMs: 1 })).toBe(10);
    expect(timeoutCheckInterval({ headersTimeoutMs: 0, requestTimeoutMs: 0 })).toBe(30_000);
    expect(timeoutCheckInterval(SERVE_LIMITS)).toBe(2500);
  });

  it('never give Node a headers timeout beyond the request timeout (it would refuse to start)', () => {
    expect(httpOptions({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toMatchObject({ headersTimeout: 1000, requestTimeout: 1000 });
  });

  it('leave Node defaults alone without limits, except the v20 answer to a missing Host', () => {
    expect(httpOptions(undefined)).toEqual({ requireHostHeader: false });
  });
});

describe('serverFactory', () => {
  it('gives every server the idle timeout (between keep-alive requests and for silent sockets) and the cap', () => {
    const make = serverFactory({ idleTimeoutMs: 700, maxConnections: 9 }, undefined, () => undefined);
    const servers = [make(() => undefined, {}), make(() => undefined, {})];
    expect(servers.map((s) => [s.keepAliveTimeout, s.timeout, s.maxConnections])).toEqual([
      [700, 700, 9],
      [700, 700, 9],
    ]);
    // Fastify adds the v20 clientError handler to the first server; the factory to the others.
    expect(servers.map((s) => s.listenerCount('clientError'))).toEqual([0, 1]);
  });

  it("keeps Fastify's keep-alive and no request timeout without limits", () => {
    const server = serverFactory(undefined, undefined, () => undefined)(() => undefined, {});
    expect([server.keepAliveTimeout, server.requestTimeout, server.timeout]).toEqual([72_000, 0, 0]);
  });
});
