import type { Micros } from '../../domain/time.js';
import { parseEpochNumberSpan, parseRfc3339Span } from './datetime.js';

/**
 * The time rule of the csv format: text with a '-' or ':' is RFC3339 (zone required, 'T' or a
 * space between date and time); otherwise it is a number whose size gives the unit: below
 * 100,000,000,000 UNIX seconds, from there on epoch milliseconds (see EPOCH_MILLIS_THRESHOLD).
 * Decimals are kept to the microsecond. NaN when neither reading applies.
 */
export function parseCsvTime(text: string, start: number, end: number): Micros {
  while (start < end && text.charCodeAt(start) === 32) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 32) end -= 1;
  for (let i = start; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 45 || c === 58) return parseRfc3339Span(text, start, end);
  }
  return parseEpochNumberSpan(text, start, end);
}
