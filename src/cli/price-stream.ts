/**
 * One connection to a v20 pricing stream (GET /v3/accounts/{account}/pricing/stream): its lines,
 * one JSON object each (PRICE or HEARTBEAT, facts sheet §8), until the server ends it, the network
 * fails, or no line arrives for `silenceMs` (v20 sends a heartbeat every 5 seconds; OpenAPI
 * streamPricing "PricingHeartbeat"), which counts as a lost connection.
 */
import { networkCause, refusal, RemoteError, v20Headers } from './v20-http.js';

export interface StreamTarget {
  readonly streamUrl: string;
  readonly token: string;
  readonly account: string;
  readonly instruments: readonly string[];
}

/** Why a connection ended: its own end, a network error or silence (retried), or a stop. */
export type StreamEnd =
  { readonly kind: 'ended'; readonly why: string; readonly lines: number } | { readonly kind: 'stopped'; readonly lines: number };

/** A refusal that retrying cannot cure (401, 403, 404, 400): the command fails. */
export class StreamRefused extends RemoteError {}

/** A non-2xx answer worth retrying (429, 5xx). */
function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

export function streamUrlOf(target: StreamTarget): URL {
  const url = new URL(`${target.streamUrl}/v3/accounts/${encodeURIComponent(target.account)}/pricing/stream`);
  url.searchParams.set('instruments', target.instruments.join(','));
  return url;
}

/** An error of onLine, told apart from the network's. */
class LineFailure {
  constructor(readonly error: unknown) {}
}

/** Aborts a connection when `silenceMs` pass without `feed()`. */
function watchdog(connection: AbortController, silenceMs: number): { feed(): void; fired(): boolean; stop(): void } {
  let silent = false;
  let timer: NodeJS.Timeout | undefined;
  const feed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      silent = true;
      connection.abort();
    }, silenceMs);
  };
  return { feed, fired: () => silent, stop: () => clearTimeout(timer) };
}

/**
 * The lines of a response body, each non-empty one counted and handed to `onLine`, the watchdog
 * fed on every chunk. Rejects with the network error; an error of onLine (a failed write) comes
 * out wrapped in LineFailure: the command's failure, not a lost connection.
 */
async function readLines(
  body: ReadableStream<Uint8Array>,
  feed: () => void,
  onLine: (line: string) => void,
  stop: AbortSignal,
  count: (n: number) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let partial = '';
  for await (const chunk of body) {
    feed();
    partial += decoder.decode(chunk, { stream: true });
    const parts = partial.split('\n');
    partial = parts.pop() as string;
    for (const line of parts) {
      if (line.trim() === '') continue;
      count(1);
      try {
        onLine(line);
      } catch (error) {
        throw new LineFailure(error);
      }
      if (stop.aborted) return;
    }
  }
}

/**
 * Reads one connection, handing each non-empty line to `onLine`. Resolves when the connection
 * ends for any reason but a refusal (rejects with StreamRefused) or, on the first connection,
 * an unreachable server (`failFast`: rejects with RemoteError).
 */
export async function readPriceStream(
  target: StreamTarget,
  silenceMs: number,
  stop: AbortSignal,
  onLine: (line: string) => void,
  failFast: boolean,
): Promise<StreamEnd> {
  const connection = new AbortController();
  const abortOnStop = (): void => connection.abort();
  stop.addEventListener('abort', abortOnStop, { once: true });
  const dog = watchdog(connection, silenceMs);
  let lines = 0;
  const url = streamUrlOf(target);
  try {
    dog.feed();
    let res: Response;
    try {
      res = await fetch(url, { headers: v20Headers(target.token), signal: connection.signal });
    } catch (error) {
      if (stop.aborted) return { kind: 'stopped', lines };
      const why = dog.fired() ? `no answer within ${silenceMs / 1000} s` : `cannot reach ${url.origin}: ${networkCause(error)}`;
      if (failFast) throw new RemoteError(`pricing stream: ${why}`);
      return { kind: 'ended', why, lines };
    }
    if (!res.ok) {
      if (!retryable(res.status)) throw new StreamRefused((await refusal(res, `pricing stream of account ${target.account}`)).message);
      await res.body?.cancel().catch(() => undefined);
      return { kind: 'ended', why: `HTTP ${res.status}`, lines };
    }
    if (res.body === null) return { kind: 'ended', why: 'an empty answer', lines };
    try {
      await readLines(res.body, dog.feed, onLine, stop, (n) => (lines += n));
    } catch (error) {
      if (error instanceof LineFailure) throw error.error;
      if (stop.aborted) return { kind: 'stopped', lines };
      if (dog.fired()) return { kind: 'ended', why: `no line for ${silenceMs / 1000} s (heartbeats lost)`, lines };
      return { kind: 'ended', why: `connection lost: ${networkCause(error)}`, lines };
    }
    if (stop.aborted) return { kind: 'stopped', lines };
    return { kind: 'ended', why: 'the server closed the stream', lines };
  } finally {
    dog.stop();
    stop.removeEventListener('abort', abortOnStop);
    connection.abort();
  }
}
