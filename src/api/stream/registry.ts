import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import type { Tick } from '../../domain/tick.js';
import type { DatetimeFormat } from '../../domain/time.js';
import type { Transaction } from '../../domain/transactions.js';
import type { Engine } from '../../engine/engine.js';
import { serializeTransaction } from '../../journal/journal.js';
import type { ApiContext } from '../context.js';
import { toUnixDatetimes } from '../../v3/datetime.js';
import { clientPrice } from '../../v3/price.js';
import { StreamClient } from './client.js';
import { STREAM_BUFFER_MAX_DEFAULT, STREAM_CLIENTS_MAX } from '../../domain/limits.js';

/** v20 sends a heartbeat every 5 s on both streams. */
const HEARTBEAT_MS_DEFAULT = 5000;

interface Listener {
  readonly client: StreamClient;
  readonly format: DatetimeFormat;
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
 * The stream clients of one server and the engine subscriptions they share: one per account with
 * transaction clients, one for prices while any pricing client is open. Each transaction or quote
 * is serialized once per DateTime format, whatever the number of clients.
 */
export class StreamRegistry {
  private readonly clients = new Map<StreamClient, (() => void)[]>();
  private readonly transactionFeeds = new Map<string, TransactionFeed>();
  private readonly priceListeners = new Map<string, Set<Listener>>();
  private priceSubscription: Subscription | undefined;

  constructor(private readonly context: ApiContext) {
    let set = registriesByEngine.get(context.engine);
    if (set === undefined) {
      set = new Set();
      registriesByEngine.set(context.engine, set);
    }
    set.add(this);
  }

  get size(): number {
    return this.clients.size;
  }

  get full(): boolean {
    return this.clients.size >= (this.context.options.streamClientsMax ?? STREAM_CLIENTS_MAX);
  }

  /** Starts a stream response: status, headers, heartbeats. */
  open(raw: ServerResponse, headers: OutgoingHttpHeaders, heartbeat: () => string): StreamClient {
    const options = this.context.options;
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
    if (!client.isClosed) this.clients.set(client, []);
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

  /** Sends every quote of the instruments to the client. */
  followPrices(instruments: readonly string[], client: StreamClient, format: DatetimeFormat): void {
    const detach = this.clients.get(client);
    if (detach === undefined) return;
    const listener: Listener = { client, format };
    for (const instrument of instruments) {
      let set = this.priceListeners.get(instrument);
      if (set === undefined) {
        set = new Set();
        this.priceListeners.set(instrument, set);
      }
      set.add(listener);
    }
    this.priceSubscription ??= this.context.engine.prices$.subscribe({ next: (tick) => this.fanOutPrice(tick) });
    detach.push(() => {
      for (const instrument of instruments) {
        const set = this.priceListeners.get(instrument);
        set?.delete(listener);
        if (set?.size === 0) this.priceListeners.delete(instrument);
      }
      if (this.priceListeners.size === 0 && this.priceSubscription !== undefined) {
        this.priceSubscription.unsubscribe();
        this.priceSubscription = undefined;
      }
    });
  }

  /** Ends every stream (server shutdown). */
  closeAll(): void {
    for (const client of [...this.clients.keys()]) client.drop('server');
    registriesByEngine.get(this.context.engine)?.delete(this);
  }

  private fanOutPrice(tick: Tick): void {
    const listeners = this.priceListeners.get(tick.instrument);
    if (listeners === undefined || listeners.size === 0) return;
    const quote = this.context.market.quoteOf(tick);
    if (quote === undefined) return;
    let rfc: string | undefined;
    let unix: string | undefined;
    for (const l of listeners) {
      const line =
        l.format === 'UNIX'
          ? (unix ??= JSON.stringify(clientPrice(quote, 'UNIX')))
          : (rfc ??= JSON.stringify(clientPrice(quote, 'RFC3339')));
      l.client.push(line);
    }
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
