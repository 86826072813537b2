import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { csvField, fmtNumber, fmtOptional, fmtPercent, textTable } from './format.js';
import { describeSources } from './load.js';
import { METRIC_NAMES } from './metric-names.js';
import { windowJson, type Metrics, type WindowJson } from './report.js';
import type { ParamValue, StrategyDefinition } from './strategy.js';
import type { SweepRow, SweepSpec } from './sweep.js';

/** A sweep's rows ranked by a metric, and the files and table that show them. */

export interface SweepReport {
  readonly strategy: string;
  readonly rankedBy: string;
  readonly swept: readonly string[];
  readonly ticks: ReadonlyArray<{ readonly file: string; readonly sha256: string }>;
  /** The period every run took its ticks from, when the sweep was given one. */
  readonly window?: WindowJson;
  readonly runs: ReadonlyArray<{
    readonly rank: number;
    readonly index: number;
    readonly params: Readonly<Record<string, ParamValue>>;
    readonly metrics: Metrics;
  }>;
}

export function sweepReport(
  definition: StrategyDefinition,
  spec: SweepSpec,
  swept: readonly string[],
  ranked: readonly SweepRow[],
  metric: string,
): SweepReport {
  return {
    strategy: definition.name,
    rankedBy: metric,
    swept,
    ticks: describeSources(spec.tickFiles),
    ...(spec.from === undefined && spec.to === undefined ? {} : { window: windowJson(spec) }),
    runs: ranked.map((row, i) => ({ rank: i + 1, index: row.index, params: row.params, metrics: row.metrics })),
  };
}

export function sweepCsv(report: SweepReport, paramNames: readonly string[]): string {
  const header = ['rank', 'index', ...paramNames, ...METRIC_NAMES];
  const lines = [header.map(csvField).join(',')];
  for (const run of report.runs) {
    lines.push(
      [run.rank, run.index, ...paramNames.map((n) => run.params[n]), ...METRIC_NAMES.map((m) => run.metrics[m])]
        .map((v) => csvField(v as string | number | boolean | null))
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function writeSweep(dir: string, report: SweepReport, paramNames: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true });
  const csv = path.join(dir, 'sweep.csv');
  const json = path.join(dir, 'sweep.json');
  writeFileSync(csv, sweepCsv(report, paramNames));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [csv, json];
}

/** The ranked table printed at the end of a sweep (at most `limit` rows). */
export function sweepTable(report: SweepReport, limit = 50): string {
  const header = ['#', ...report.swept, 'net P/L', 'return', 'sharpe', 'sortino', 'max DD', 'win rate', 'PF', 'trades'];
  const rows = report.runs
    .slice(0, limit)
    .map((run) => [
      String(run.rank),
      ...report.swept.map((n) => String(run.params[n])),
      fmtNumber(run.metrics.netPL),
      fmtPercent(run.metrics.return),
      fmtOptional(run.metrics.sharpe),
      fmtOptional(run.metrics.sortino),
      fmtPercent(run.metrics.maxDrawdown),
      fmtPercent(run.metrics.winRate, 1),
      fmtOptional(run.metrics.profitFactor),
      fmtNumber(run.metrics.trades, 0),
    ]);
  const right = new Set(header.map((_, i) => i).filter((i) => i === 0 || i > report.swept.length));
  const more = report.runs.length > limit ? `\n(${report.runs.length - limit} more in sweep.csv)` : '';
  return `${textTable(header, rows, right)}${more}`;
}
