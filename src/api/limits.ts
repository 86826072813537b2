/**
 * The operational limits of a listening server: how fast one connection may send requests, how fast
 * one client may open connections, how many streams an account may hold, how many connections the
 * server keeps, and how long a connection may stay silent. They protect a long-running server from
 * one client (or an idle-socket flood) starving the others; they are wall-clock rules of the HTTP
 * shell, never of the simulated market, so backtests and scenarios run without them.
 *
 * OANDA's numbers come from its v20 best-practices page
 * (https://developer.oanda.com/rest-live-v20/best-practices/; facts sheet "Rate limits" and
 * "Limits"): 100 requests per second on a persistent connection, 2 new connections per second,
 * 20 active streams, throttled requests answered 429. The connection cap and the timeouts are the
 * simulator's own (OANDA does not publish them).
 */
export interface ApiLimits {
  /** Requests one connection may send per second; more get 429. OANDA: 100. 0 = no limit. */
  readonly requestsPerSecondPerConnection?: number;
  /**
   * New connections one client address may open per second, on average; the first request on a
   * connection over the rate gets 429 and the connection is closed. OANDA: 2. 0 = no limit.
   */
  readonly newConnectionsPerSecond?: number;
  /**
   * New connections one client address may open at once before the rate applies (the size of its
   * token bucket; at least newConnectionsPerSecond). A bot that opens its streams and a REST
   * session together, or a client without keep-alive making a few calls, is not refused for it.
   */
  readonly newConnectionsBurst?: number;
  /** Open transaction and pricing streams per account; the next gets 429. OANDA: 20. 0 = no limit. */
  readonly streamsPerAccount?: number;
  /** Open connections the server keeps; Node closes the ones beyond at once. 0 = no limit. */
  readonly maxConnections?: number;
  /** Time a client has to send a request's headers (idle new sockets are closed after it). */
  readonly headersTimeoutMs?: number;
  /** Time a client has to send a whole request (not the response: streams are not cut by it). */
  readonly requestTimeoutMs?: number;
  /** A connection silent this long is closed: between keep-alive requests, or mid-request. Streams are exempt. */
  readonly idleTimeoutMs?: number;
}

export type ApiLimitName = keyof ApiLimits;

/** What `serve` runs with unless configured otherwise. */
export const SERVE_LIMITS: Required<ApiLimits> = {
  requestsPerSecondPerConnection: 100,
  newConnectionsPerSecond: 2,
  newConnectionsBurst: 20,
  streamsPerAccount: 20,
  // Well below the usual 1024 open files per process, so accepting never fails for want of one.
  maxConnections: 500,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
};

export const API_LIMIT_NAMES: readonly ApiLimitName[] = Object.keys(SERVE_LIMITS) as ApiLimitName[];

/** How often Node checks the headers and request timeouts: often enough for the shortest configured one. */
export function timeoutCheckInterval(limits: ApiLimits): number {
  const set = [limits.headersTimeoutMs ?? 0, limits.requestTimeoutMs ?? 0].filter((ms) => ms > 0);
  // Node's own default when no timeout is set.
  if (set.length === 0) return 30_000;
  return Math.max(10, Math.min(30_000, Math.floor(Math.min(...set) / 4)));
}
