/** Scenario files: format (schema/scenario.schema.json), loader, runner, worker pool and reporters. */
export { DEFAULT_PATTERNS, expandScenarioPaths } from './files.js';
export { loadScenario, ScenarioInvalid, SCHEMA_URL, scenarioSchema, type Problem } from './load.js';
export { compare, matches, type Mismatch } from './compare.js';
export { MATCHER_NAMES, type Matcher, type MatcherName } from './matchers.js';
export type { Scenario, Step } from './model.js';
export { runScenarioFiles, type PoolOptions } from './pool.js';
export {
  exitCodeOf,
  failureText,
  junitReport,
  prettyResult,
  prettySummary,
  REPORTERS,
  resultText,
  tapReport,
  type ReporterName,
} from './report.js';
export { runScenario, type DiffEntry, type Failure, type RunOptions, type ScenarioResult, type StepResult } from './run.js';
export { runScenarioFile } from './run-file.js';
export { parseScenarioText, type Location } from './source.js';
