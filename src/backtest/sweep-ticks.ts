/** A sweep's ticks, read once into shared columns that every thread's runs read. */
import { mergeByTime, type FeedFormat, type TickWindow } from '../engine/feeds/index.js';
import { openTicks, type TickSourceOptions } from './tick-files.js';
import { columnTicksMax } from './sweep-plan.js';
import { columnTicks, concatColumns, readLeanColumns, readTickColumns, type TickColumns } from './tick-columns.js';

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
 * The files' columns merged by time as openTicks merges the files (mergeByTime: a stable sort of
 * their concatenation), so the runs see the very same ticks; undefined if a file has none. Files
 * of consecutive periods are already in order one after another and are only put together.
 */
export function mergeSweepFiles(parts: readonly (TickColumns | undefined)[]): TickColumns | undefined {
  const files: TickColumns[] = [];
  for (const part of parts) {
    if (part === undefined) return undefined;
    files.push(part);
  }
  if (files.length === 1) return files[0];
  return concatColumns(files) ?? readTickColumns(mergeByTime(files.map(columnTicks)), columnTicksMax());
}

/** A worker's answer to a `files` task: each file it read, by index. */
export type FilesRead = ReadonlyArray<readonly [number, TickColumns | undefined]>;
