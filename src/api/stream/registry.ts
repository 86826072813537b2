import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { merge, type Subscription } from 'rxjs';
import type { Tick } from '../../domain/tick.js';
import type { DatetimeFormat, Micros } from '../../domain/time.js';
import type { Transaction } from '../../domain/transactions.js';
import type { Engine } from '../../engine/engine.js';
import { serializeTransaction } from '../../journal/journal.js';
import type { ApiContext } from '../context.js';
import { toUnixDatetimes } from '../../v3/datetime.js';
import { clientPrice, type Quote } from '../../v3/price.js';
import { StreamClient } from './client.js';
import { throttlePrices, type MarketEvent } from './throttle.js';
import { STREAM_BUFFER_MAX_DEFAULT, STREAM_CLIENTS_MAX } from '../../domain/limits.js';

/** v20 sends a heartbeat every 5 s on both streams. */
const HEARTBEAT_MS_DEFAULT = 5000;

interface Listener {
  readonly client: StreamClient;
  readonly format: DatetimeFormat;
}

interface PriceLines {
  readonly quote: Quote;
  rfc?: string;
  unix?: string;
}

interface TransactionFeed {
  readonly subscription: Subscription;
  readonly listeners: Set<Listener>;
}

const registriesByEngine = new WeakMap<Engine, Set<StreamRegistry>>();

/** Stream clients open on every server built over an engine (diagnostics and tests). */
export function activeStreamClients(engine: Engine): number {
  let n = 0;
  for (const registry of registriesByEngine.get(engine) ?? []) n += registry.size;
  return n;
}

/**
 * The stream clients of one server and their engine subscriptions: one per account with
 * transaction clients, shared by them; one per pricing client (its own throttle windows). Each
 * transaction or quote is serialized once per DateTime format, whatever the number of clients.
 */
export class StreamRegistry {
  private readonly clients = new Map<StreamClient, (() => void)[]>();
  /** Open streams (transactions and pricing) per account, for `limits.streamsPerAccount`. */
  private readonly perAccount = new Map<string, number>();
  private readonly transactionFeeds = new Map<string, TransactionFeed>();
  /** The stream lines of quotes, by Tick: weakly held, gone with the Tick. */
  private readonly priceLines = new WeakMap<Tick, PriceLines>();

  /** The engine whose clients this registry counts in (activeStreamClients): the app's at its first stream. */
  private countedIn: Engine | undefined = undefined;

  constructor(private readonly context: ApiContext) {}

  /** Counted with the engine the app serves now (an app may serve another engine later: ReusableApp). */
  private countWithEngine(): void {
    const engine = this.context.engine;
    if (this.countedIn === engine) return;
    if (this.countedIn !== undefined) registriesByEngine.get(this.countedIn)?.delete(this);
    let set = registriesByEngine.get(engine);
    if (set === undefined) {
      set = new Set();
      registriesByEngine.set(engine, set);
    }
    set.add(this);
    this.countedIn = engine;
  }

  get size(): number {
    return this.clients.size;
  }

  get full(): boolean {
    return this.clients.size >= (this.context.options.streamClientsMax ?? STREAM_CLIENTS_MAX);
  }

  /** Whether the account holds as many open streams as it may (OANDA: 20; facts sheet, rate limits). */
  accountFull(accountId: string): boolean {
    const max = this.context.options.limits?.streamsPerAccount ?? 0;
    return max > 0 && (this.perAccount.get(accountId) ?? 0) >= max;
  }

  /** Starts a stream response of an account: status, headers, heartbeats. */
  open(accountId: string, raw: ServerResponse, headers: OutgoingHttpHeaders, heartbeat: () => string): StreamClient {
    this.countWithEngine();
    const options = this.context.options;
    // A stream is quiet between heartbeats by design: the idle timeout is for silent requests, not for it.
    raw.socket?.setTimeout(0);
    const client: StreamClient = new StreamClient(raw, headers, {
      bufferMax: options.streamBufferMax ?? STREAM_BUFFER_MAX_DEFAULT,
      heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS_DEFAULT,
      heartbeat,
      onClose: () => {
        const detach = this.clients.get(client);
        this.clients.delete(client);
        for (const d of detach ?? []) d();
      },
    });
    if (!client.isClosed) {
      this.perAccount.set(accountId, (this.perAccount.get(accountId) ?? 0) + 1);
      this.clients.set(client, [
        () => {
          const n = (this.perAccount.get(accountId) ?? 1) - 1;
          if (n > 0) this.perAccount.set(accountId, n);
          else this.perAccount.delete(accountId);
        },
      ]);
    }
    return client;
  }

  /** Sends every new transaction of an account to the client, in order. */
  followTransactions(accountId: string, client: StreamClient, format: DatetimeFormat): void {
    const detach = this.clients.get(client);
    if (detach === undefined) return;
    let feed = this.transactionFeeds.get(accountId);
    if (feed === undefined) {
      const listeners = new Set<Listener>();
      const subscription = this.context.engine.transactions$(accountId).subscribe({ next: (tx) => fanOutTransaction(listeners, tx) });
      feed = { subscription, listeners };
      this.transactionFeeds.set(accountId, feed);
    }
    const listener: Listener = { client, format };
    const f = feed;
    f.listeners.add(listener);
    detach.push(() => {
      f.listeners.delete(listener);
      if (f.listeners.size === 0 && this.transactionFeeds.get(accountId) === f) {
        this.transactionFeeds.delete(accountId);
        f.subscription.unsubscribe();
      }
    });
  }

  /**
   * Sends the quotes of the instruments to the client, at most one per instrument per
   * `throttleMicros` of simulated time (throttle.ts; 0: every quote). Each connection has its own
   * windows, as v20's do.
   */
  followPrices(instruments: readonly string[], client: StreamClient, format: DatetimeFormat, throttleMicros: Micros): void {
    const detach = this.clients.get(client);
    if (detach === undefined) return;
    const engine = this.context.engine;
    const subscription = merge<MarketEvent[]>(engine.prices$, engine.advances$)
      .pipe(throttlePrices(throttleMicros, new Set(instruments)))
      .subscribe({
        next: (tick) => {
          const line = this.priceLine(tick, format);
          if (line !== undefined) client.push(line);
        },
      });
    detach.push(() => subscription.unsubscribe());
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const client of [...this.clients.keys()]) client.drop('server');
    if (this.countedIn !== undefined) registriesByEngine.get(this.countedIn)?.delete(this);
    this.countedIn = undefined;
  }

  /**
   * The line of a quote in a format, serialized once whatever the number of clients that send it
   * (clients holding on to the same Tick share the strings).
   */
  private priceLine(tick: Tick, format: DatetimeFormat): string | undefined {
    let lines = this.priceLines.get(tick);
    if (lines === undefined) {
      const quote = this.context.market.quoteOf(tick);
      if (quote === undefined) return undefined;
      lines = { quote };
      this.priceLines.set(tick, lines);
    }
    return format === 'UNIX'
      ? (lines.unix ??= JSON.stringify(clientPrice(lines.quote, 'UNIX')))
      : (lines.rfc ??= JSON.stringify(clientPrice(lines.quote, 'RFC3339')));
  }
}

function fanOutTransaction(listeners: ReadonlySet<Listener>, tx: Transaction): void {
  let rfc: string | undefined;
  let unix: string | undefined;
  for (const l of listeners) {
    const line = l.format === 'UNIX' ? (unix ??= JSON.stringify(toUnixDatetimes(tx))) : (rfc ??= serializeTransaction(tx));
    l.client.push(line);
  }
}
