/**
 * What a candle download's file depends on, kept beside its `.partial` as `FILE.partial.json`: a
 * run that finds the `.partial` continues it only when it asks for the same candles. The file's
 * lines say which granularity and instruments it holds, but not the range it was started for: a
 * resume with another --from would leave a gap at the start, with an earlier --to candles past
 * the end, with another instrument that instrument's candles before the resume point missing.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { schemaChecker } from './schema-check.js';
import { RemoteError } from './v20-http.js';

const DownloadOptionsSchema = Type.Object(
  {
    instruments: Type.Array(Type.String()),
    granularity: Type.String(),
    from: Type.String(),
    to: Type.String(),
    format: Type.String(),
    mid: Type.Boolean(),
    includeIncomplete: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** The options that decide which candles go into the file and how they are written (not --url, --token, paging or retries). */
export type DownloadOptions = Static<typeof DownloadOptionsSchema>;

const checkOptions = schemaChecker(DownloadOptionsSchema);

/** The option each field comes from, for the message. */
const FLAGS: Record<keyof DownloadOptions, string> = {
  instruments: '--instrument',
  granularity: '--granularity',
  from: '--from',
  to: '--to',
  format: '--format',
  mid: '--mid',
  includeIncomplete: '--include-incomplete',
};

function optionsFileOf(partial: string): string {
  return `${partial}.json`;
}

/** Records the options of a run that starts `partial`. */
export function writeDownloadOptions(partial: string, options: DownloadOptions): void {
  writeFileSync(optionsFileOf(partial), `${JSON.stringify(options)}\n`);
}

export function removeDownloadOptions(partial: string): void {
  rmSync(optionsFileOf(partial), { force: true });
}

function shown(value: DownloadOptions[keyof DownloadOptions]): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Checks that a run asking for `options` may continue `partial`: throws naming each option that
 * differs from the run that started it. False when the `.partial` has no record (left by a version
 * that did not write one): it is continued unchecked, as then.
 */
export function checkResumeOptions(partial: string, options: DownloadOptions): boolean {
  const file = optionsFileOf(partial);
  if (!existsSync(file)) return false;
  let recorded: unknown;
  try {
    recorded = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    throw new RemoteError(`${file} is not the JSON this command writes; delete ${partial} and ${file} to start again`);
  }
  const fault = checkOptions(recorded);
  if (fault !== null) throw new RemoteError(`${file}: ${fault.field} ${fault.why}; delete ${partial} and ${file} to start again`);
  const started = recorded as DownloadOptions;
  const differences: string[] = [];
  for (const key of Object.keys(FLAGS) as (keyof DownloadOptions)[]) {
    const was = shown(started[key]);
    const now = shown(options[key]);
    if (was !== now) differences.push(`${FLAGS[key]} ${was} (now ${now})`);
  }
  if (differences.length > 0)
    throw new RemoteError(
      `${partial} was started with ${differences.join(', ')}; run the same command again to continue it, or delete ${partial} and ${file} to start over`,
    );
  return true;
}
