/**
 * `v20sim record`: a v20 pricing stream written as an NDJSON tick file that v20sim replays.
 * Written to FILE.partial and renamed to FILE when the recording ends (duration, count, signal);
 * a FILE.partial left by a killed run is continued. A lost connection (its end, a network error,
 * or heartbeats missing for --heartbeat-timeout) is reconnected with exponential backoff; a price
 * not newer than the last one written for its instrument is skipped, so the snapshot a new
 * connection starts with (facts sheet §8: the stream opens with the current prices) or a replayed
 * quote is never written twice.
 */
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDateTime, type Micros } from '../domain/time.js';
import { lineProgress } from './download-progress.js';
import { readPriceStream, type StreamTarget } from './price-stream.js';
import { EXIT, UsageError, type Parsed } from './program.js';
import { instrumentsOption, requiredOption, secondsOption, stringOption, tokenOption, urlOption, wholeOption } from './remote-options.js';
import { TimeOrder } from './tick-order.js';
import { tickOfStreamLine } from './tick-record.js';
import { backoffMs, PRACTICE_STREAM_URL, RemoteError, type RetryPolicy } from './v20-http.js';

export interface RecordIo {
  readonly stderr: NodeJS.WritableStream;
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted by a signal: the recording ends as if its duration were over. */
  readonly stop?: AbortSignal;
}

interface RecordPlan {
  readonly target: StreamTarget;
  readonly out: string;
  readonly durationMs: number | undefined;
  readonly count: number | undefined;
  readonly silenceMs: number;
  readonly retry: RetryPolicy;
}

/** Three v20 heartbeats (5 s apart, OpenAPI streamPricing) missing in a row mean the connection is gone. */
const DEFAULT_HEARTBEAT_TIMEOUT_S = 15;
/** How long a price is held for older prices of other instruments to arrive (tick-order.ts). */
const HOLD_MS = 1000;
const DEFAULT_RECONNECTS = 10;

function planOf(options: Readonly<Record<string, unknown>>, env: RecordIo['env']): RecordPlan {
  const command = 'record';
  const url = stringOption(options, 'url');
  const streamUrl = urlOption(
    stringOption(options, 'streamUrl') ?? url ?? PRACTICE_STREAM_URL,
    stringOption(options, 'streamUrl') === undefined && url !== undefined ? '--url' : '--stream-url',
  );
  const token = tokenOption(options, env);
  const account = requiredOption(options, 'account', '--account', command);
  const instruments = instrumentsOption(options, command);
  const out = requiredOption(options, 'out', '--out', command);
  const duration = stringOption(options, 'duration');
  const countText = stringOption(options, 'count');
  const baseDelayMs = wholeOption(stringOption(options, 'retryBaseMs'), '--retry-base-ms', 1000, 0, 600_000);
  return {
    target: { streamUrl, token, account, instruments },
    out,
    durationMs: duration === undefined ? undefined : secondsOption(duration, '--duration', 0) * 1000,
    count: countText === undefined ? undefined : wholeOption(countText, '--count', 0, 1, Number.MAX_SAFE_INTEGER),
    silenceMs: secondsOption(stringOption(options, 'heartbeatTimeout'), '--heartbeat-timeout', DEFAULT_HEARTBEAT_TIMEOUT_S) * 1000,
    retry: {
      retries: wholeOption(stringOption(options, 'retries'), '--retries', DEFAULT_RECONNECTS, 0, 1000),
      baseDelayMs,
      maxDelayMs: Math.max(baseDelayMs, 30_000),
    },
  };
}

/**
 * Prepares a FILE.partial of an interrupted run for appending: cuts a last line without its
 * newline and returns the time of the last line (every instrument resumes after it).
 */
function resumePartial(partial: string): Micros | undefined {
  const fd = openSync(partial, 'r+');
  try {
    const size = fstatSync(fd).size;
    const tail = Math.min(size, 1 << 20);
    const buffer = Buffer.alloc(tail);
    readSync(fd, buffer, 0, tail, size - tail);
    const text = buffer.toString('utf8');
    const keep = text.lastIndexOf('\n') + 1;
    ftruncateSync(fd, size - tail + keep);
    const lines = text
      .slice(0, keep)
      .split('\n')
      .filter((l) => l.trim() !== '');
    const last = lines.at(-1);
    if (last === undefined) return undefined;
    let time: unknown;
    try {
      time = (JSON.parse(last) as { time?: unknown }).time;
    } catch {
      throw new RemoteError(`${partial}: its last complete line is not a tick line: ${last.slice(0, 120)}`);
    }
    const at = typeof time === 'string' ? parseDateTime(time, 'ANY') : null;
    if (at === null) throw new RemoteError(`${partial}: its last line has no readable time`);
    return at;
  } finally {
    closeSync(fd);
  }
}

/** Connections one after the other until `done`; waits with backoff between them. */
async function reconnecting(
  plan: RecordPlan,
  done: AbortSignal,
  onLine: (line: string) => void,
  warn: (text: string) => void,
): Promise<void> {
  let connected = false;
  let failures = 0;
  while (!done.aborted) {
    const end = await readPriceStream(plan.target, plan.silenceMs, done, onLine, !connected);
    if (end.kind === 'stopped' || done.aborted) return;
    if (end.lines > 0) failures = 0;
    failures += 1;
    if (failures > plan.retry.retries) throw new RemoteError(`pricing stream: ${end.why}; gave up after ${plan.retry.retries} reconnects`);
    const wait = backoffMs(plan.retry, failures);
    warn(`v20sim record: ${end.why}; reconnecting in ${(wait / 1000).toFixed(1)} s (attempt ${failures})`);
    await sleep(wait, undefined, { signal: done }).catch(() => undefined);
    // Only the first connection fails at once on an unreachable server; later ones are retried.
    connected = true;
  }
}

/** FILE.partial, new or continued: a continued one's last tick time is the floor of what is written after it. */
function openPartial(out: string, warn: (text: string) => void): { partial: string; floor: Micros | undefined; created: boolean } {
  const partial = `${out}.partial`;
  if (existsSync(out)) throw new RemoteError(`${out} already exists (a finished recording); remove it or choose another --out`);
  if (!existsSync(partial)) {
    writeFileSync(partial, '');
    return { partial, floor: undefined, created: true };
  }
  if (!statSync(partial).isFile()) throw new RemoteError(`${partial} is not a file`);
  const floor = resumePartial(partial);
  if (floor !== undefined) warn(`v20sim record: continuing ${partial} (ticks after its last line only)`);
  return { partial, floor, created: false };
}

async function record(plan: RecordPlan, io: RecordIo): Promise<number> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  const { partial, floor, created } = openPartial(plan.out, warn);

  const done = new AbortController();
  const finish = (): void => done.abort();
  io.stop?.addEventListener('abort', finish, { once: true });
  if (io.stop?.aborted === true) finish();
  const timer = plan.durationMs === undefined ? undefined : setTimeout(finish, plan.durationMs);

  const last = new Map<string, Micros>();
  let written = 0;
  const progress = lineProgress((text) => void io.stderr.write(text), io.isTTY, 'v20sim record', 'ticks');
  // Wall-clock time: how long a price waits for older ones of other instruments (tick-order.ts).
  const order = new TimeOrder(
    (text) => appendFileSync(partial, text),
    HOLD_MS,
    () => performance.now(),
    floor,
  );
  const flusher = setInterval(() => order.flush(), HOLD_MS / 2);
  const onLine = (line: string): void => {
    if (done.signal.aborted) return;
    const tick = tickOfStreamLine(line);
    if (tick === undefined) return;
    const previous = last.get(tick.instrument) ?? floor;
    if (previous !== undefined && tick.at <= previous) return;
    if (!order.add(tick)) return;
    last.set(tick.instrument, tick.at);
    written += 1;
    progress.update(
      written,
      plan.count === undefined ? undefined : written / plan.count,
      `${tick.instrument} ${new Date(tick.at / 1000).toISOString()}`,
    );
    if (plan.count !== undefined && written >= plan.count) finish();
  };

  try {
    await reconnecting(plan, done.signal, onLine, warn);
  } catch (error) {
    // A file this run created and nothing went into is not left behind.
    if (created && written === 0) rmSync(partial, { force: true });
    throw error;
  } finally {
    clearTimeout(timer);
    clearInterval(flusher);
    order.flush(true);
    io.stop?.removeEventListener('abort', finish);
  }
  renameSync(partial, plan.out);
  const late =
    order.late === 0
      ? ''
      : ` (${order.late} prices came more than ${HOLD_MS} ms after newer ones and were left out, to keep the file in time order)`;
  progress.finish(`${written} ticks written to ${plan.out}${late}`);
  return EXIT.ok;
}

/** `v20sim record` with its options parsed (see program.ts); returns the exit code. */
export async function runParsedRecord(parsed: Extract<Parsed, { kind: 'run' }>, io: RecordIo): Promise<number> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  try {
    return await record(planOf(parsed.options, io.env), io);
  } catch (error) {
    if (error instanceof UsageError) {
      warn(`v20sim record: ${error.message}`);
      return EXIT.usage;
    }
    warn(`v20sim record: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}
