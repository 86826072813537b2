/**
 * `v20sim download candles`: bid/ask candles of one or more instruments from a v20 server into an
 * NDJSON or CSV file. Written to FILE.partial and renamed to FILE at the end, so a file under its
 * final name is always whole; a second run with the same --out continues the .partial after its
 * last complete line, when it asks for the same candles (download-options-file.ts).
 */
import { appendFileSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { formatRfc3339, type Micros } from '../domain/time.js';
import { GRANULARITIES } from '../v3/candles/granularity.js';
import { CANDLES_COUNT_MAX } from '../domain/limits.js';
import {
  CANDLE_FILE_FORMATS,
  csvHeader,
  formatCandleLine,
  prepareResume,
  type CandleFileFormat,
  type CandleLine,
  type ResumePoint,
} from './candle-file.js';
import { mergeCandles } from './candle-merge.js';
import { checkResumeOptions, removeDownloadOptions, writeDownloadOptions, type DownloadOptions } from './download-options-file.js';
import { candlePages } from './candle-pages.js';
import { lineProgress } from './download-progress.js';
import { EXIT, UsageError, type Parsed } from './program.js';
import { datetimeOption, instrumentsOption, requiredOption, stringOption, tokenOption, urlOption, wholeOption } from './remote-options.js';
import { DEFAULT_RETRY, PRACTICE_REST_URL, RemoteError, type RetryPolicy } from './v20-http.js';

export interface DownloadIo {
  readonly stderr: NodeJS.WritableStream;
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

interface DownloadPlan {
  readonly url: string;
  readonly token: string;
  readonly instruments: readonly string[];
  readonly granularity: string;
  readonly from: Micros;
  readonly to: Micros;
  readonly out: string;
  readonly format: CandleFileFormat;
  readonly withMid: boolean;
  readonly includeIncomplete: boolean;
  readonly pageSize: number;
  readonly retry: RetryPolicy;
}

function planOf(options: Readonly<Record<string, unknown>>, env: DownloadIo['env']): DownloadPlan {
  const command = 'download candles';
  const url = urlOption(stringOption(options, 'url') ?? PRACTICE_REST_URL, '--url');
  const token = tokenOption(options, env);
  const instruments = instrumentsOption(options, command);
  const granularity = requiredOption(options, 'granularity', '--granularity', command);
  if (!(GRANULARITIES as readonly string[]).includes(granularity))
    throw new UsageError(`--granularity ${JSON.stringify(granularity)} is not a v20 granularity (${GRANULARITIES.join(', ')})`);
  const from = datetimeOption(requiredOption(options, 'from', '--from', command), '--from');
  const to = datetimeOption(requiredOption(options, 'to', '--to', command), '--to');
  if (from >= to) throw new UsageError(`--from (${formatRfc3339(from)}) must be before --to (${formatRfc3339(to)})`);
  const out = requiredOption(options, 'out', '--out', command);
  const formatText = stringOption(options, 'format') ?? (/\.csv$/i.test(out) ? 'csv' : 'ndjson');
  if (!(CANDLE_FILE_FORMATS as readonly string[]).includes(formatText))
    throw new UsageError(`--format must be ${CANDLE_FILE_FORMATS.join(' or ')}, got ${JSON.stringify(formatText)}`);
  const retries = wholeOption(stringOption(options, 'retries'), '--retries', DEFAULT_RETRY.retries, 0, 100);
  const baseDelayMs = wholeOption(stringOption(options, 'retryBaseMs'), '--retry-base-ms', DEFAULT_RETRY.baseDelayMs, 0, 600_000);
  return {
    url,
    token,
    instruments,
    granularity,
    from,
    to,
    out,
    format: formatText as CandleFileFormat,
    withMid: options['mid'] === true,
    includeIncomplete: options['includeIncomplete'] === true,
    pageSize: wholeOption(stringOption(options, 'pageSize'), '--page-size', CANDLES_COUNT_MAX, 1, CANDLES_COUNT_MAX),
    retry: { ...DEFAULT_RETRY, retries, baseDelayMs, maxDelayMs: Math.max(baseDelayMs, DEFAULT_RETRY.maxDelayMs) },
  };
}

/** Before the resume point in (time, --instrument order): already in the file. */
function alreadyWritten(candle: CandleLine, index: number, resume: ResumePoint | undefined, resumeIndex: number): boolean {
  if (resume === undefined) return false;
  return candle.at < resume.at || (candle.at === resume.at && index <= resumeIndex);
}

interface PartialFile {
  readonly partial: string;
  readonly resume: ResumePoint | undefined;
  /** Made by this run (removed again when the run fails before writing a candle). */
  readonly created: boolean;
  /** Continued without a record of the options it was started with (made by an earlier version). */
  readonly unchecked: boolean;
}

function optionsOf(plan: DownloadPlan): DownloadOptions {
  return {
    instruments: [...plan.instruments],
    granularity: plan.granularity,
    from: formatRfc3339(plan.from),
    to: formatRfc3339(plan.to),
    format: plan.format,
    mid: plan.withMid,
    includeIncomplete: plan.includeIncomplete,
  };
}

/** FILE.partial ready for appending: a new one (with the CSV header), or an interrupted one cut after its last complete candle. */
function openPartial(plan: DownloadPlan): PartialFile {
  const partial = `${plan.out}.partial`;
  if (existsSync(plan.out)) throw new RemoteError(`${plan.out} already exists (a finished download); remove it or choose another --out`);
  const header = csvHeader(plan.withMid);
  const created = !existsSync(partial);
  let resume: ResumePoint | undefined;
  let unchecked = false;
  if (created) {
    writeFileSync(partial, '');
    writeDownloadOptions(partial, optionsOf(plan));
  } else {
    if (!statSync(partial).isFile()) throw new RemoteError(`${partial} is not a file`);
    // Before anything is cut from the file: a run asking for other candles leaves it as it is.
    unchecked = !checkResumeOptions(partial, optionsOf(plan));
    resume = prepareResume(partial, plan.format, header, plan.granularity, plan.instruments);
  }
  if (plan.format === 'csv' && statSync(partial).size === 0) appendFileSync(partial, `${header}\n`);
  return { partial, resume, created, unchecked };
}

function pagesOf(plan: DownloadPlan, from: Micros, warn: (text: string) => void): AsyncIterator<CandleLine[]>[] {
  return plan.instruments.map((instrument) =>
    candlePages({
      baseUrl: plan.url,
      token: plan.token,
      instrument,
      granularity: plan.granularity,
      price: plan.withMid ? 'MBA' : 'BA',
      from,
      to: plan.to,
      pageSize: plan.pageSize,
      includeIncomplete: plan.includeIncomplete,
      retry: plan.retry,
      events: {
        onRetry: (why, waitMs, attempt) =>
          warn(`v20sim download: ${instrument}: ${why}; retry ${attempt} in ${(waitMs / 1000).toFixed(1)} s`),
      },
    }),
  );
}

async function download(plan: DownloadPlan, io: DownloadIo): Promise<void> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  const { partial, resume, created, unchecked } = openPartial(plan);
  if (unchecked)
    warn(
      `v20sim download: ${partial} has no record of the options it was started with (an earlier version made it): continuing it unchecked`,
    );
  if (resume !== undefined)
    warn(`v20sim download: resuming ${partial} after ${resume.instrument} ${resume.time} (${resume.lines} candles already there)`);
  const resumeIndex = resume === undefined ? -1 : plan.instruments.indexOf(resume.instrument);
  const progress = lineProgress((text) => void io.stderr.write(text), io.isTTY, 'v20sim download', 'candles');
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    appendFileSync(partial, `${pending.join('\n')}\n`);
    pending = [];
  };
  let written = resume?.lines ?? 0;
  const candles = mergeCandles(pagesOf(plan, resume?.at ?? plan.from, warn), {
    skip: (candle, index) => alreadyWritten(candle, index, resume, resumeIndex),
    // What is merged so far goes to disk before each request: an interruption loses no page.
    beforeFetch: flush,
  });
  try {
    for await (const candle of candles) {
      pending.push(formatCandleLine(candle, plan.format, plan.withMid));
      written += 1;
      progress.update(written, (candle.at - plan.from) / (plan.to - plan.from), `${candle.instrument} ${candle.time}`);
    }
  } catch (error) {
    flush();
    // A file this run created and nothing went into is not left behind.
    if (created && written === 0) {
      rmSync(partial, { force: true });
      removeDownloadOptions(partial);
    }
    throw error;
  }
  flush();
  renameSync(partial, plan.out);
  removeDownloadOptions(partial);
  progress.finish(`${written} candles written to ${plan.out}`);
}

/** `v20sim download candles` with its options parsed (see program.ts); returns the exit code. */
export async function runParsedDownload(parsed: Extract<Parsed, { kind: 'run' }>, io: DownloadIo): Promise<number> {
  const warn = (text: string): void => void io.stderr.write(`${text}\n`);
  try {
    const plan = planOf(parsed.options, io.env);
    await download(plan, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      warn(`v20sim download: ${error.message}`);
      return EXIT.usage;
    }
    warn(`v20sim download: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failure;
  }
}
