/**
 * How many runs a backtest's parameters ask for, counted from the command line and the config
 * file alone: the strategy, whose defaults decide each value's type, is not loaded yet. The
 * backtest command starts a sweep's workers by it (sweep-pool.ts). A comma list counts its values,
 * `start:stop[:step]` its range (as a number parameter reads it), a config file's list its length;
 * the exact grid comes later from params.ts, which reads the values with these same patterns.
 */

/** A number as a parameter value is written. */
export const NUMBER_RE = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
/** `start:stop[:step]`. */
export const RANGE_RE = /^([-+]?[\d.eE+-]+):([-+]?[\d.eE+-]+)(?::([-+]?[\d.eE+-]+))?$/;

/** Values from start to stop (both included) by step; the tolerance lets 0.1:0.3:0.1 reach 0.3. */
export function rangeLength(start: number, stop: number, step: number): number {
  return Math.floor((stop - start) / step + 1e-9) + 1;
}

/** The values of one range, or 1 when the text is not a well-formed one (the grid then says why). */
function rangeCount(text: string): number {
  const m = RANGE_RE.exec(text.trim());
  if (m === null) return 1;
  const parts = [m[1], m[2], m[3] ?? '1'];
  if (!parts.every((part) => NUMBER_RE.test(part as string))) return 1;
  const [start, stop, step] = parts.map(Number) as [number, number, number];
  if (!(step > 0) || !(stop >= start)) return 1;
  return rangeLength(start, stop, step);
}

/** The runs of the grid the options describe (1: a single backtest, as far as can be told now). */
export function countRuns(configParams: Readonly<Record<string, unknown>> | undefined, args: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const [name, value] of Object.entries(configParams ?? {})) counts.set(name, Array.isArray(value) ? value.length : 1);
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) continue;
    const parts = arg.slice(eq + 1).split(',');
    counts.set(
      arg.slice(0, eq).trim(),
      parts.reduce((n, part) => n + rangeCount(part), 0),
    );
  }
  let runs = 1;
  for (const n of counts.values()) runs *= Math.max(1, n);
  return runs;
}
