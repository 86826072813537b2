import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { Subscription } from 'rxjs';
import { toUnixDatetimes } from '../v3/datetime.js';
import type { Transaction } from '../domain/transactions.js';
import type { Engine } from '../engine/engine.js';
import { serializeTransaction } from '../journal/journal.js';

/** How long a stream expectation waits for lines the engine has already sent. */
export const STREAM_WAIT_MS = 5000;

/**
 * A transaction stream client of a scenario. `http` reads the real endpoint over a loopback socket;
 * `engine` subscribes to the engine and writes the lines the endpoint would send. Either way the
 * client also counts the transactions the engine published since it opened, so an expectation
 * knows how many lines are due without waiting on the wall clock.
 */
export interface ScenarioStream {
  readonly name: string;
  readonly accountId: string;
  readonly format: 'RFC3339' | 'UNIX';
  /** Non-heartbeat lines received, in order. */
  readonly lines: string[];
  /** Transactions the engine published to the account since the stream opened. */
  readonly published: Transaction[];
  /** Index in `lines` up to which an expectation has looked. */
  cursor: number;
  /** Resolves when `lines.length >= count`, or false after STREAM_WAIT_MS. */
  waitFor(count: number): Promise<boolean>;
  close(): void;
}

class LineCollector {
  readonly lines: string[] = [];
  private partial = '';
  private waiters: { count: number; resolve: (ok: boolean) => void; timer: ReturnType<typeof setTimeout> }[] = [];

  add(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      if (/^\{"type":"HEARTBEAT"/.test(line)) continue;
      this.lines.push(line);
    }
    this.settle();
  }

  waitFor(count: number): Promise<boolean> {
    if (this.lines.length >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { count, resolve, timer: setTimeout(() => this.expire(waiter), STREAM_WAIT_MS) };
      this.waiters.push(waiter);
    });
  }

  private expire(waiter: { resolve: (ok: boolean) => void }): void {
    this.waiters = this.waiters.filter((w) => w !== waiter);
    waiter.resolve(false);
  }

  settle(): void {
    for (const w of [...this.waiters]) {
      if (this.lines.length < w.count) continue;
      clearTimeout(w.timer);
      this.waiters = this.waiters.filter((x) => x !== w);
      w.resolve(true);
    }
  }

  end(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(this.lines.length >= w.count);
    }
    this.waiters = [];
  }
}

function lineOf(tx: Transaction, format: 'RFC3339' | 'UNIX'): string {
  return format === 'UNIX' ? JSON.stringify(toUnixDatetimes(tx)) : serializeTransaction(tx);
}

export function openEngineStream(engine: Engine, name: string, accountId: string, format: 'RFC3339' | 'UNIX'): ScenarioStream {
  const collector = new LineCollector();
  const published: Transaction[] = [];
  const subscription = engine.transactions$(accountId).subscribe((tx) => {
    published.push(tx);
    collector.add(`${lineOf(tx, format)}\n`);
  });
  return streamOf(name, accountId, format, collector, published, () => subscription.unsubscribe());
}

/** A ScenarioStream over collected lines; `stop` detaches its source before the collector ends. */
function streamOf(
  name: string,
  accountId: string,
  format: 'RFC3339' | 'UNIX',
  collector: LineCollector,
  published: Transaction[],
  stop: () => void,
): ScenarioStream {
  return {
    name,
    accountId,
    format,
    lines: collector.lines,
    published,
    cursor: 0,
    waitFor: (count) => collector.waitFor(count),
    close: () => {
      stop();
      collector.end();
    },
  };
}

type StreamOpenResult =
  { readonly ok: true; readonly stream: ScenarioStream } | { readonly ok: false; readonly status: number; readonly body: string };

/** GET the transaction stream over loopback; resolves once the response headers arrive. */
export function openHttpStream(
  engine: Engine,
  port: number,
  name: string,
  accountId: string,
  path: string,
  headers: Record<string, string>,
  format: 'RFC3339' | 'UNIX',
): Promise<StreamOpenResult> {
  return new Promise((resolve, reject) => {
    const collector = new LineCollector();
    const published: Transaction[] = [];
    let subscription: Subscription | undefined;
    const req: ClientRequest = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res: IncomingMessage) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ ok: false, status: res.statusCode ?? 0, body }));
        return;
      }
      // The server subscribed before it sent the headers; nothing has happened since.
      subscription = engine.transactions$(accountId).subscribe((tx) => published.push(tx));
      res.on('data', (chunk: string) => collector.add(chunk));
      res.on('end', () => collector.end());
      res.on('error', () => collector.end());
      resolve({
        ok: true,
        stream: streamOf(name, accountId, format, collector, published, () => {
          subscription?.unsubscribe();
          req.destroy();
        }),
      });
    });
    req.on('error', (err) => {
      collector.end();
      reject(err);
    });
    req.end();
  });
}

/** A one-off request to a stream path: the status, headers and (for errors) the body; a 200 is cut off at once. */
export function probeStream(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.setEncoding('utf8');
      const status = res.statusCode ?? 0;
      const responseHeaders = { ...res.headers };
      if (status === 200) {
        req.destroy();
        resolve({ status, headers: responseHeaders, body: undefined });
        return;
      }
      let body = '';
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status, headers: responseHeaders, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Stream lines parsed as JSON (a line that is not stays text); each RFC3339 line must be exactly
 * the journal's line for its transaction. `fail` hears every line that breaks either rule.
 */
export function parseStreamLines(
  stream: ScenarioStream,
  fresh: readonly string[],
  start: number,
  fail: (message: string, actual?: string) => void,
): unknown[] {
  const parsed: unknown[] = [];
  for (let i = 0; i < fresh.length; i += 1) {
    const line = fresh[i] as string;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      fail(`stream line ${start + i + 1} is not JSON: ${line.slice(0, 200)}`);
      parsed.push(line);
    }
    const tx = stream.published[start + i];
    if (stream.format === 'RFC3339' && tx !== undefined) {
      const journalLine = JSON.stringify(tx);
      if (journalLine !== line)
        fail(
          `stream line ${start + i + 1} differs from the journal's line for transaction ${tx.id}`,
          `stream:  ${line}\njournal: ${journalLine}`,
        );
    }
  }
  return parsed;
}
