import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import type { ApiLimits } from '../limits.js';
import { V20Error } from '../../v3/errors.js';
import type { RequestStep } from './request-state.js';

/** Client addresses whose new-connection budget is remembered; idle ones are forgotten first. */
const ADDRESSES_MAX = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * New connections per client address as a token bucket: it holds `burst` tokens, refills at
 * `perSecond` a second, and each new connection takes one. OANDA: 2 new connections per second.
 */
export class NewConnectionRate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
    burst = perSecond,
  ) {
    this.burst = Math.max(burst, perSecond, 1);
  }

  /** Takes a token for a new connection from `address`; false when the address is over the rate. */
  admit(address: string): boolean {
    const t = this.now();
    let bucket = this.buckets.get(address);
    if (bucket === undefined) {
      if (this.buckets.size >= ADDRESSES_MAX) this.forget(t);
      bucket = { tokens: this.burst, at: t };
      this.buckets.set(address, bucket);
    } else {
      bucket.tokens = this.refilled(bucket, t);
      bucket.at = t;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  get size(): number {
    return this.buckets.size;
  }

  private refilled(bucket: Bucket, t: number): number {
    return Math.min(this.burst, bucket.tokens + (Math.max(0, t - bucket.at) / 1000) * this.perSecond);
  }

  /** Drops the addresses whose bucket is full again (they would start afresh anyway), else the oldest. */
  private forget(t: number): void {
    for (const [address, bucket] of this.buckets) if (this.refilled(bucket, t) >= this.burst) this.buckets.delete(address);
    if (this.buckets.size >= ADDRESSES_MAX) {
      const oldest = this.buckets.keys().next();
      if (oldest.done !== true) this.buckets.delete(oldest.value);
    }
  }
}

/**
 * Requests per connection in fixed one-second windows. OANDA: 100 requests per second on a
 * persistent connection. Keyed by the socket, not the address: clients behind one address (a NAT,
 * or every test on loopback) each get their own budget, as OANDA counts per connection.
 */
export class RequestRate {
  private readonly windows = new WeakMap<object, { start: number; count: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  /** Counts a request on `connection`: 0 if it is within the rate, else the milliseconds until the window ends. */
  take(connection: object): number {
    const t = this.now();
    const w = this.windows.get(connection);
    if (w === undefined || t - w.start >= 1000) {
      this.windows.set(connection, { start: t, count: 1 });
      return 0;
    }
    w.count += 1;
    return w.count <= this.perSecond ? 0 : Math.max(1, w.start + 1000 - t);
  }
}

function tooMany(reply: FastifyReply, message: string, retryAfterSeconds: number): void {
  const e = new V20Error(429, { errorMessage: message });
  void reply.header('Retry-After', String(retryAfterSeconds)).code(e.statusCode).send(e.body);
}

/**
 * The new-connection rate of every server an app listens with (Fastify opens one per address
 * when a host name resolves to several): connections over the rate are remembered until their
 * first request is answered.
 */
export class ConnectionGuard {
  private readonly overRate = new WeakSet<Socket>();
  private readonly rate: NewConnectionRate | undefined;

  constructor(limits: ApiLimits, now: () => number) {
    const perSecond = limits.newConnectionsPerSecond ?? 0;
    this.rate = perSecond > 0 ? new NewConnectionRate(perSecond, now, limits.newConnectionsBurst ?? perSecond) : undefined;
  }

  attach(server: Server): void {
    const rate = this.rate;
    if (rate === undefined) return;
    server.on('connection', (socket: Socket) => {
      if (!rate.admit(socket.remoteAddress ?? '')) this.overRate.add(socket);
    });
  }

  isOverRate(socket: Socket): boolean {
    return this.overRate.has(socket);
  }
}

/**
 * OANDA's throttles (https://developer.oanda.com/rest-live-v20/best-practices/): requests per
 * connection and new connections per client address, both answered 429 with a v20 error body and
 * Retry-After. A connection over the new-connection rate is not dropped unanswered: its first
 * request gets the 429 and `Connection: close`, so a client sees why. Wall-clock time: these
 * protect the server, not the simulated market.
 */
export function connectionLimits(limits: ApiLimits, guard: ConnectionGuard, now: () => number): RequestStep | undefined {
  const perConnection = limits.requestsPerSecondPerConnection ?? 0;
  const newPerSecond = limits.newConnectionsPerSecond ?? 0;
  const requests = perConnection > 0 ? new RequestRate(perConnection, now) : undefined;
  if (newPerSecond <= 0 && requests === undefined) return undefined;
  return (request, reply) => {
    const socket = request.raw.socket;
    if (guard.isOverRate(socket)) {
      void reply.header('Connection', 'close');
      tooMany(reply, `Too many new connections: at most ${newPerSecond} per second`, 1);
      return true;
    }
    const wait = requests?.take(socket) ?? 0;
    if (wait > 0) {
      tooMany(reply, `Too many requests: at most ${perConnection} per second on a connection`, Math.ceil(wait / 1000));
      return true;
    }
    return false;
  };
}
