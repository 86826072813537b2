/**
 * Text formatting for reports and tables, independent of the host: no locale, no time zone
 * (toFixed is exactly specified by ECMAScript, so the same number prints the same everywhere).
 */
import { formatRfc3339, type Micros } from '../domain/time.js';

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The UTC month (YYYY-MM) of a time, and the span [start, end) of that month in microseconds. */
export function utcMonth(t: Micros): { month: string; start: Micros; end: Micros } {
  const date = new Date(Math.floor(t / 1000));
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return {
    month: `${String(year).padStart(4, '0')}-${pad2(month + 1)}`,
    start: Date.UTC(year, month, 1) * 1000,
    end: Date.UTC(year, month + 1, 1) * 1000,
  };
}

/** 1234567.891 -> "1,234,567.89". */
export function fmtNumber(value: number, decimals = 2): string {
  if (!Number.isFinite(value)) return String(value);
  const text = Math.abs(value).toFixed(decimals);
  const [int, frac] = text.split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = value < 0 && Number(text) !== 0;
  return `${negative ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`;
}

/** 0.0523 -> "5.23%". */
export function fmtPercent(fraction: number | null, decimals = 2): string {
  return fraction === null ? 'n/a' : `${fmtNumber(fraction * 100, decimals)}%`;
}

export function fmtOptional(value: number | null, decimals = 2): string {
  return value === null ? 'n/a' : fmtNumber(value, decimals);
}

/** 93784 -> "1d 2h 3m"; under a minute: seconds. */
export function fmtDuration(seconds: number | null): string {
  if (seconds === null) return 'n/a';
  if (seconds < 60) return `${fmtNumber(seconds, seconds < 10 ? 1 : 0)}s`;
  const total = Math.round(seconds / 60);
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days}d`);
  if (hours > 0 || days > 0) parts.push(`${hours}h`);
  parts.push(`${minutes}m`);
  return parts.join(' ');
}

/** "2014-05-01 21:00:00" (UTC, to the second). */
export function fmtTime(t: Micros): string {
  return formatRfc3339(t).slice(0, 19).replace('T', ' ');
}

/** Parses "90s", "5m", "1h", "1d" or a number of seconds into microseconds. */
export function parseDuration(text: string): Micros {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (m === null) throw new Error(`expected a duration such as 30s, 5m, 1h or 1d, got ${JSON.stringify(text)}`);
  const unit = m[2] ?? 's';
  const factor =
    unit === 'ms' ? 1_000 : unit === 's' ? 1_000_000 : unit === 'm' ? 60_000_000 : unit === 'h' ? 3_600_000_000 : 86_400_000_000;
  const micros = Math.round(Number(m[1]) * factor);
  if (!(micros > 0)) throw new Error(`a duration must be positive, got ${JSON.stringify(text)}`);
  return micros;
}

/** A CSV field: quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A plain-text table with aligned columns; `right` marks the columns aligned right. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
