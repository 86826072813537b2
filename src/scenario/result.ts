import type { Problem } from './load.js';
import type { Location } from './source.js';

/** One difference, placed in the scenario file. */
export interface DiffEntry {
  readonly path: string;
  readonly location: Location;
  readonly expected: string;
  readonly actual: string;
  readonly note?: string;
}

export interface Failure {
  readonly message: string;
  readonly location: Location;
  readonly diff?: readonly DiffEntry[];
  /** What was actually there, for the reader (a response body, the transactions). */
  readonly actual?: string;
}

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  readonly index: number;
  readonly label: string;
  readonly location: Location;
  readonly status: StepStatus;
  readonly failures: readonly Failure[];
}

export type ScenarioStatus = 'passed' | 'failed' | 'invalid';

/** What a run of one file reports: plain data, the same from a worker as in process. */
export interface ScenarioResult {
  readonly file: string;
  readonly name: string;
  readonly status: ScenarioStatus;
  readonly steps: readonly StepResult[];
  /** Failures outside the steps (golden logs, teardown). */
  readonly failures: readonly Failure[];
  /** Why the file is invalid (status 'invalid'). */
  readonly problems: readonly Problem[];
  readonly goldens: readonly { readonly file: string; readonly status: 'matched' | 'updated' | 'written' | 'differs' | 'missing' }[];
  readonly durationMs: number;
}

export interface RunOptions {
  /** Rewrite golden files instead of comparing them. */
  readonly update?: boolean;
}
