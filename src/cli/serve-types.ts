import type { App } from '../api/app.js';
import type { Engine } from '../engine/engine.js';

export interface ServeIo {
  out(line: string): void;
  err(line: string): void;
  /** A fatal error after start (a failed journal write): print and end the process. */
  fatal(message: string): never;
}

export interface ServeHandle {
  /** http://host:port of the REST and stream API. */
  readonly url: string;
  readonly engine: Engine;
  readonly app: App;
  close(): Promise<void>;
}

/** A refusal to start, with the exit code the CLI should end with (3: a damaged journal, see open-data-dir.ts). */
export class StartError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
    this.name = 'StartError';
  }
}
