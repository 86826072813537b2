import type { Observable } from 'rxjs';
import type { AccountCommand, Outcome } from '../account/commands.js';
import type { AccountConfig } from '../account/state.js';
import type { InstrumentSpec } from '../domain/instruments.js';
import type { Tick } from '../domain/tick.js';
import type { Micros } from '../domain/time.js';
import type { Transaction } from '../domain/transactions.js';
import type { BookSnapshot } from '../engine/books.js';
import type { AccountView, Engine, RunInfo } from '../engine/engine.js';
import type { Journal } from '../journal/journal.js';

export interface ShellHooks {
  /** Before an account is opened: record its config in the data dir; returns how to undo that if the opening fails. */
  beforeOpen?(config: AccountConfig): () => void;
  /** Before the clock moves to `time`: feed the ticks due by then (manual stepping through a file). */
  beforeTime?(time: Micros): void;
  /** After the clock moved: re-plan the replay. */
  afterTime?(): void;
  /** Any error thrown by the engine; e.g. a failed journal write stops the process here. */
  onError?(error: unknown): void;
}

/**
 * The engine as the CLI hands it to the API: every call goes to the real engine, with the serve
 * mode's hooks around the calls that open accounts or move the clock.
 */
export class ShellEngine implements Engine {
  constructor(
    private readonly inner: Engine,
    private readonly hooks: ShellHooks,
  ) {}

  get instruments(): ReadonlyMap<string, InstrumentSpec> {
    return this.inner.instruments;
  }

  get journal(): Journal {
    return this.inner.journal;
  }

  get replayedRequestIdMax(): bigint | undefined {
    return this.inner.replayedRequestIdMax;
  }

  get info(): RunInfo {
    return this.inner.info;
  }

  get now(): Micros {
    return this.inner.now;
  }

  get prices$(): Observable<Tick> {
    return this.inner.prices$;
  }

  get advances$(): Observable<Micros> {
    return this.inner.advances$;
  }

  accountIds(): string[] {
    return this.inner.accountIds();
  }

  account(id: string): AccountView | undefined {
    return this.inner.account(id);
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      this.hooks.onError?.(error);
      throw error;
    }
  }

  execute(accountId: string, command: AccountCommand, options?: { requestID?: string; now?: Micros }): Outcome {
    return this.guard(() => {
      if (options?.now !== undefined && options.now > this.inner.now) this.hooks.beforeTime?.(options.now);
      return this.inner.execute(accountId, command, options);
    });
  }

  pushTick(tick: Tick): void {
    this.guard(() => {
      this.hooks.beforeTime?.(tick.time);
      this.inner.pushTick(tick);
    });
    this.hooks.afterTime?.();
  }

  advanceTo(time: Micros): void {
    this.guard(() => {
      this.hooks.beforeTime?.(time);
      this.inner.advanceTo(time);
    });
    this.hooks.afterTime?.();
  }

  run(feed: Observable<Tick> | Iterable<Tick>): Promise<void> {
    return this.inner.run(feed);
  }

  transactions$(accountId: string): Observable<Transaction> {
    return this.inner.transactions$(accountId);
  }

  keepBooks(): void {
    this.inner.keepBooks();
  }

  bookAt(time: Micros): BookSnapshot | undefined {
    return this.inner.bookAt(time);
  }

  /**
   * Not guarded: an account the journal refuses was never opened (the engine journals its opening
   * transactions in one append before it counts the account), so memory is not ahead of the disk
   * and the server goes on; the caller answers the failure.
   */
  openAccount(config: AccountConfig): AccountView {
    const undo = this.hooks.beforeOpen?.(config);
    try {
      return this.inner.openAccount(config);
    } catch (error) {
      undo?.();
      throw error;
    }
  }
}
