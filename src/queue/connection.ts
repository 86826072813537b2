/**
 * Where a sweep's queue lives: a Redis URL (redis://HOST:PORT/DB), the BullMQ queue name, and the
 * key of a strategy's source. Every sweep and every worker on one Redis database share the queue;
 * each sweep tells its own jobs apart by the sweep ID in their job IDs.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';

/** The BullMQ queue every sweep puts its runs on and every `v20sim worker` takes them from. */
export const QUEUE_NAME = 'v20sim-sweep';

/** How long Redis keeps an uploaded strategy source: longer than any sweep, short enough to clean up after itself. */
export const SOURCE_TTL_SECONDS = 7 * 24 * 3600;

/** The Redis key of a strategy source by its SHA-256: workers fetch it by the digest a job names. */
export function strategyKey(sha256: string): string {
  return `v20sim:strategy:${sha256}`;
}

/**
 * The version of the engine that computes a run: the package version. A worker of another version
 * refuses a run instead of computing a result the sweep's own version might not reproduce.
 */
export const ENGINE_VERSION = ((): string => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return `v20sim ${pkg.version ?? 'unknown'}`;
})();

/** Checks a --queue URL: redis://[user:password@]HOST:PORT[/DB] (or rediss:// for TLS). */
export function checkQueueUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`not a URL: ${JSON.stringify(text)} (expected redis://HOST:PORT/DB)`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new Error(`expected a redis:// URL (redis://HOST:PORT/DB), got ${JSON.stringify(text)}`);
  if (url.hostname === '') throw new Error(`no host in ${JSON.stringify(text)} (expected redis://HOST:PORT/DB)`);
  if (!/^(\/\d*)?$/.test(url.pathname))
    throw new Error(`the path of ${JSON.stringify(text)} must be a database number (redis://HOST:PORT/DB)`);
  return text;
}

/** The URL without its password, for messages. */
export function displayUrl(text: string): string {
  const url = new URL(text);
  if (url.password !== '') url.password = '***';
  return url.href;
}

/**
 * ioredis options for BullMQ and for our own client. `maxRetriesPerRequest: null` is what BullMQ
 * asks of a worker's connection (its blocking commands must wait out a reconnect, not fail); the
 * commands queue while Redis is away and run once ioredis has reconnected, so a Redis restart
 * pauses a sweep rather than failing it. The sweep bounds that wait itself (see sweep-queue.ts).
 */
export function connectionOptions(url: string, closing: () => boolean = () => false): QueueConnection {
  return { url, maxRetriesPerRequest: null, retryStrategy: (times) => (closing() ? null : reconnectDelay(times)) };
}

export interface QueueConnection {
  readonly url: string;
  readonly maxRetriesPerRequest: null;
  /** The wait before the next reconnect; null: stop (a sweep that gave up must be able to close). */
  readonly retryStrategy: (times: number) => number | null;
}

/** Reconnect quickly at first, then every 2 s at most, for as long as the process runs. */
function reconnectDelay(times: number): number {
  return Math.min(times * 100, 2000);
}

/** A plain ioredis client for the strategy sources (BullMQ keeps its own connections). */
export function redisClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, retryStrategy: reconnectDelay });
}
