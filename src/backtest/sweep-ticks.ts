/** A sweep's ticks, read once into shared columns that every thread's runs read. */
import { mergeByTime, type FeedFormat, type TickWindow } from '../engine/feeds/index.js';
import { openTicks, type TickSourceOptions } from './tick-files.js';
import { columnTicksMax } from './sweep-plan.js';
import { columnTicks, partsInTimeOrder, readLeanColumns, readTickColumns, type SweepColumns, type TickColumns } from './tick-columns.js';

/** A sweep's tick files and how to read them (part of SweepSpec). */
export interface SweepTicks extends TickWindow {
  readonly tickFiles: readonly string[];
  readonly format?: FeedFormat;
  readonly instrument?: string;
}

/** The tick source options of a sweep's files. */
export function tickOptions(spec: SweepTicks): TickSourceOptions {
  return {
    ...(spec.format === undefined ? {} : { format: spec.format }),
    ...(spec.instrument === undefined ? {} : { instrument: spec.instrument }),
    ...(spec.from === undefined ? {} : { from: spec.from }),
    ...(spec.to === undefined ? {} : { to: spec.to }),
  };
}

/**
 * One tick file of the sweep read into shared columns (a LEAN file straight from its bytes when
 * its lines are all plain, lean-quotes.ts), or undefined when it cannot be held there
 * (liquidity levels, more than columnTicksMax()): then each run reads the files itself.
 */
export function readSweepFile(spec: SweepTicks, file: number): TickColumns | undefined {
  const path = spec.tickFiles[file] as string;
  const options = tickOptions(spec);
  return readLeanColumns(path, options, columnTicksMax()) ?? readTickColumns(openTicks([path], options), columnTicksMax());
}

/**
 * The files' columns as the runs read them, merged by time as openTicks merges the files
 * (mergeByTime: a stable sort of their concatenation), so the runs see the very same ticks;
 * undefined if a file has none. Files of consecutive periods are already in that order one after
 * another and are kept as they are, parts read in turn (nothing copied).
 */
export function mergeSweepFiles(parts: readonly (TickColumns | undefined)[]): SweepColumns | undefined {
  const files: TickColumns[] = [];
  for (const part of parts) {
    if (part === undefined) return undefined;
    files.push(part);
  }
  if (partsInTimeOrder(files)) return files;
  const merged = readTickColumns(mergeByTime(files.map((file) => columnTicks(file))), columnTicksMax());
  return merged === undefined ? undefined : [merged];
}

/** A worker's answer to a `files` task: each file it read, by index. */
export type FilesRead = ReadonlyArray<readonly [number, TickColumns | undefined]>;
