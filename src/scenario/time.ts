import { formatRfc3339, parseDateTime, type Micros } from '../domain/time.js';

const UNIT_MICROS: Readonly<Record<string, number>> = { us: 1, ms: 1000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000, d: 86_400_000_000 };
const DURATION_PART_RE = /(\d+(?:\.\d+)?)(us|ms|s|m|h|d)/gy;

/** `1m30s`, `250ms`, `1.5s` in microseconds; null when the text is not a duration. */
export function parseDuration(text: string): Micros | null {
  if (text.length === 0 || text.length > 64) return null;
  DURATION_PART_RE.lastIndex = 0;
  let total = 0;
  let pos = 0;
  for (;;) {
    const m = DURATION_PART_RE.exec(text);
    if (m === null) break;
    total += Number(m[1]) * (UNIT_MICROS[m[2] as string] as number);
    pos = DURATION_PART_RE.lastIndex;
  }
  if (pos !== text.length) return null;
  return Math.round(total);
}

/** True when the time is written relative to the start (`T`, `T+5s`). */
export function isRelativeTime(text: string): boolean {
  return text === 'T' || text.startsWith('T+');
}

/** An RFC3339 time, or `T+<duration>` after `start`. */
export function parseScenarioTime(text: string, start: Micros | undefined): Micros | null {
  if (isRelativeTime(text)) {
    if (start === undefined) return null;
    if (text === 'T') return start;
    const d = parseDuration(text.slice(2));
    return d === null ? null : start + d;
  }
  if (!/^\d{4}-/.test(text)) return null;
  return parseDateTime(text, 'RFC3339');
}

export function showTime(t: Micros): string {
  return formatRfc3339(t);
}
