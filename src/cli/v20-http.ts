/**
 * Calls to a remote v20 server (OANDA's or any other) for the download and record commands: the
 * Bearer token, the retry rule for 429, 5xx and network errors, and messages that name the cause.
 * Node's own fetch (undici); the wall clock is read here for waits only, never for data.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** OANDA's practice hosts (developer.oanda.com, "Development Guide": REST and stream endpoints). */
export const PRACTICE_REST_URL = 'https://api-fxpractice.oanda.com';
export const PRACTICE_STREAM_URL = 'https://stream-fxpractice.oanda.com';

/** A failure the command reports as one line and exit code 1. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
}

export interface RetryPolicy {
  /** Attempts after the first before giving up. */
  readonly retries: number;
  /** The first wait; each further one doubles, up to maxDelayMs. No jitter: runs are repeatable. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 6, baseDelayMs: 1000, maxDelayMs: 30_000 };

/** The wait before attempt `attempt` (1 = the first retry): base x 2^(attempt-1), capped. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Retry-After as RFC 9110 §10.2.3 allows it: delay-seconds or an HTTP-date. Undefined when absent
 * or unreadable (then the backoff applies). Capped by the policy's longest wait.
 */
export function retryAfterMs(header: string | null, policy: RetryPolicy, nowMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(policy.maxDelayMs, Number(text) * 1000);
  const at = new Date(text).getTime();
  if (Number.isNaN(at)) return undefined;
  return Math.min(policy.maxDelayMs, Math.max(0, at - nowMs));
}

/** The headers of every call: the token (OANDA: "Authorization: Bearer <token>") and RFC3339 times. */
export function v20Headers(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'accept-datetime-format': 'RFC3339' };
}

/** v20's error body is {"errorMessage": ...}; anything else is quoted as it came, shortened. */
async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { errorMessage?: unknown };
    if (typeof body.errorMessage === 'string') return body.errorMessage;
  } catch {
    // not JSON: quoted below
  }
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/** The cause of a refused call in words: what the status means for the user, then the server's message. */
export async function refusal(res: Response, what: string): Promise<RemoteError> {
  const message = await errorText(res);
  const said = message === '' ? '' : `: ${message}`;
  switch (res.status) {
    case 401:
      return new RemoteError(`${what}: 401 Unauthorized, the token was refused (check --token)${said}`);
    case 403:
      return new RemoteError(`${what}: 403 Forbidden, the token may not use this account or resource${said}`);
    case 404:
      return new RemoteError(`${what}: 404 Not Found (check the URL, account or instrument)${said}`);
    default:
      return new RemoteError(`${what}: HTTP ${res.status}${said}`);
  }
}

/** Why a fetch failed without a response (DNS, refused connection, reset, TLS), from undici's cause. */
export function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause !== undefined && typeof cause.code === 'string')
    return `${cause.code}${typeof cause.message === 'string' ? ` (${cause.message})` : ''}`;
  if (cause !== undefined && typeof cause.message === 'string') return cause.message;
  return (error as Error).message;
}

export interface RetryEvents {
  /** Told before each wait: why, and how long. */
  readonly onRetry?: (why: string, waitMs: number, attempt: number) => void;
}

/**
 * GET `url`, retrying 429 (after Retry-After when the server sends one), 5xx and network errors
 * with exponential backoff, at most `policy.retries` times. Any other non-2xx answer is a
 * RemoteError at once (a retry would get the same answer). Resolves with the parsed JSON body.
 */
export async function getJson(url: URL, token: string, policy: RetryPolicy, what: string, events: RetryEvents = {}): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    let why: string;
    let wait: number | undefined;
    try {
      const res = await fetch(url, { headers: v20Headers(token) });
      if (res.ok) {
        const text = await res.text();
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new RemoteError(`${what}: the answer is not JSON: ${text.slice(0, 200)}`);
        }
      }
      if (res.status !== 429 && res.status < 500) throw await refusal(res, what);
      why = res.status === 429 ? '429 Too Many Requests' : `HTTP ${res.status}`;
      wait = res.status === 429 ? retryAfterMs(res.headers.get('retry-after'), policy, Date.now()) : undefined;
      await res.body?.cancel();
    } catch (error) {
      if (error instanceof RemoteError) throw error;
      why = `cannot reach ${url.origin}: ${networkCause(error)}`;
    }
    if (attempt >= policy.retries) throw new RemoteError(`${what}: ${why}; gave up after ${attempt + 1} attempts`);
    const delay = wait ?? backoffMs(policy, attempt + 1);
    events.onRetry?.(why, delay, attempt + 1);
    await sleep(delay);
  }
}
