import { splitFields } from './fields.js';

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_ ]*$/;

/**
 * The field names of a header line, lower-cased and trimmed, or null when some field does not
 * look like a column name. Only text that reads as a header is skipped as one, so a garbled
 * first data line still fails loudly.
 */
export function headerNames(text: string, start: number, end: number, bounds: Int32Array, max: number): string[] | null {
  const count = splitFields(text, start, end, bounds, max);
  if (count > max) return null;
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = text.slice(bounds[2 * i], bounds[2 * i + 1]).trim();
    if (!NAME_RE.test(name)) return null;
    names.push(name.toLowerCase());
  }
  return names;
}
