/**
 * The latest quote of each instrument, kept in the data dir (`quotes.json`) so that a restarted
 * server has prices at once: without them every account's price slots are empty, and the first
 * market order after a restart is cancelled for want of a price.
 *
 * Bounded writes: the file is rewritten whole (temporary file, then rename: a reader or a crash
 * sees the old or the new file, never half of one) at most once per QUOTES_FLUSH_MS of wall time
 * and only when a quote came in since, and once more on a clean stop. A killed server loses at
 * most the quotes of its last interval; the restart then starts from the quotes before them. This
 * is the shell's business: the engine sees the restored quotes as ordinary ticks, and nothing of
 * the core reads the clock or the file.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, existsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import type { PriceLevel, Tick } from '../domain/tick.js';
import { formatRfc3339, parseDateTime } from '../domain/time.js';
import type { Engine } from '../engine/engine.js';
import { syncDir } from '../journal/file-io.js';

export const QUOTES_FILE = 'quotes.json';
/** At most one rewrite of the quotes file per second: what a killed server can lose. */
export const QUOTES_FLUSH_MS = 1000;

/** A Tick as the file keeps it: its time as an RFC 3339 string. */
type StoredQuote = Omit<Tick, 'time'> & { readonly time: string };

function stored(tick: Tick): StoredQuote {
  return { ...tick, time: formatRfc3339(tick.time) };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function levels(value: unknown): readonly PriceLevel[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every(
    (l: unknown) => typeof l === 'object' && l !== null && finite((l as PriceLevel).price) && finite((l as PriceLevel).liquidity),
  )
    ? (value as PriceLevel[])
    : undefined;
}

function tickOf(value: unknown, instruments: ReadonlyMap<string, unknown>): Tick | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const q = value as Partial<Record<keyof StoredQuote, unknown>>;
  const time = typeof q.time === 'string' ? parseDateTime(q.time, 'RFC3339') : null;
  if (typeof q.instrument !== 'string' || !instruments.has(q.instrument) || time === null || !finite(q.bid) || !finite(q.ask))
    return undefined;
  const bids = levels(q.bids);
  const asks = levels(q.asks);
  return {
    instrument: q.instrument,
    time,
    bid: q.bid,
    ask: q.ask,
    ...(finite(q.closeoutBid) ? { closeoutBid: q.closeoutBid } : {}),
    ...(finite(q.closeoutAsk) ? { closeoutAsk: q.closeoutAsk } : {}),
    ...(bids === undefined ? {} : { bids }),
    ...(asks === undefined ? {} : { asks }),
  };
}

/** The quotes of the file in it, those the engine knows; warnings for anything else. */
export function readQuotes(dir: string, instruments: ReadonlyMap<string, unknown>): { ticks: Tick[]; warnings: string[] } {
  const file = join(dir, QUOTES_FILE);
  if (!existsSync(file)) return { ticks: [], warnings: [] };
  let quotes: unknown;
  try {
    quotes = (JSON.parse(readFileSync(file, 'utf8')) as { quotes?: unknown }).quotes;
  } catch (error) {
    return { ticks: [], warnings: [`${file}: not JSON (${(error as Error).message}); starting without its quotes`] };
  }
  if (!Array.isArray(quotes)) return { ticks: [], warnings: [`${file}: no "quotes" list; starting without its quotes`] };
  const ticks: Tick[] = [];
  const warnings: string[] = [];
  quotes.forEach((q: unknown, i) => {
    const tick = tickOf(q, instruments);
    if (tick === undefined) warnings.push(`${file}: quotes[${i}] is not a quote of a known instrument; skipped`);
    else ticks.push(tick);
  });
  return { ticks, warnings };
}

/**
 * Gives the engine the stored quotes, oldest first. A quote older than the clock (the clock
 * resumed at a later transaction, or it is live) is given at the clock's time: it is still the
 * latest price known. A newer one moves the clock to it, where the stopped server was.
 */
export function restoreQuotes(engine: Engine, ticks: readonly Tick[]): void {
  const ordered = [...ticks].sort((a, b) => a.time - b.time || (a.instrument < b.instrument ? -1 : 1));
  for (const tick of ordered) engine.pushTick(tick.time < engine.now ? { ...tick, time: engine.now } : tick);
}

function writeAtomically(dir: string, text: string, fsync: boolean): void {
  const file = join(dir, QUOTES_FILE);
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, text);
    if (fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  if (fsync) syncDir(dir);
}

/** Follows the engine's quotes and keeps the latest of each instrument in the data dir. */
export class QuoteKeeper {
  private readonly latest = new Map<string, Tick>();
  private dirty = false;
  private subscription: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failed = false;

  constructor(
    private readonly dir: string,
    private readonly fsync: boolean,
    private readonly warn: (line: string) => void,
  ) {}

  start(engine: Engine, initial: readonly Tick[]): void {
    for (const tick of initial) this.latest.set(tick.instrument, tick);
    this.subscription = engine.prices$.subscribe((tick) => {
      this.latest.set(tick.instrument, tick);
      this.dirty = true;
    });
    this.timer = setInterval(() => this.flush(), QUOTES_FLUSH_MS);
    this.timer.unref();
  }

  /** Rewrites the file if a quote came in since the last write. A failure warns once and is retried at the next interval. */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const quotes = [...this.latest.keys()].sort().map((name) => stored(this.latest.get(name) as Tick));
    try {
      writeAtomically(this.dir, `${JSON.stringify({ quotes }, null, 1)}\n`, this.fsync);
      this.failed = false;
    } catch (error) {
      this.dirty = true;
      if (!this.failed) this.warn(`v20sim: cannot save the latest quotes in ${this.dir}: ${(error as Error).message}`);
      this.failed = true;
    }
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.flush();
  }
}
