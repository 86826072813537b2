import type { Micros } from '../domain/time.js';
import type { SourceMap } from './source.js';

/** What the parts of the scenario loader share: where the file is, and how to report a problem in it. */
export interface LoadContext {
  /** The scenario file's folder: relative paths in it resolve against this. */
  readonly dir: string;
  readonly cwd: string;
  readonly map: SourceMap;
  /**
   * Read every tick of each tick file now, so a bad line or a tick out of time order is a problem
   * of the file (`scenario check`); a run reads them as it goes and fails at that step instead.
   */
  readonly readTickFiles: boolean;
  /** A problem at a JSON pointer into the document (`key`: at the property's name, not its value). */
  problem(pointer: string, message: string, key?: boolean): void;
  /** A time of the file (absolute or T+ from `start`); undefined after reporting a problem. */
  time(text: string, pointer: string, start: Micros | undefined): Micros | undefined;
}
