/**
 * Number parsing on a span of a larger string, so a line never has to be cut into substrings.
 * The fast path reads up to 15 significant digits into an exact integer and divides once by an
 * exact power of ten; IEEE division rounds correctly, so the result equals Number() on the text.
 */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_FAST_DIGITS = 15; // 10^15 - 1 < 2^53: the mantissa stays an exact integer
const STRICT_DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPACE = 32;
const TAB = 9;
const DOT = 46;
const ZERO = 48;

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

function slowDecimal(text: string, start: number, end: number): number {
  const slice = text.slice(start, end);
  return STRICT_DECIMAL_RE.test(slice) ? Number(slice) : Number.NaN;
}

/**
 * A decimal such as `1.08463`, `150`, `-0.5` or `1e-3` within text[start, end), surrounding blanks
 * ignored. NaN when the span is not a plain decimal (Number() would accept `0x10` or `''`; this
 * does not).
 */
export function parseDecimal(text: string, start: number, end: number): number {
  while (start < end && isBlank(text.charCodeAt(start))) start += 1;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end -= 1;
  let mantissa = 0;
  let digits = 0;
  let dot = -1;
  for (let i = start; i < end; i += 1) {
    const d = text.charCodeAt(i) - ZERO;
    if (d >= 0 && d <= 9) {
      mantissa = mantissa * 10 + d;
      digits += 1;
    } else if (d === DOT - ZERO && dot < 0) {
      dot = i;
    } else {
      return slowDecimal(text, start, end);
    }
  }
  if (digits === 0) return Number.NaN;
  if (digits > MAX_FAST_DIGITS) return slowDecimal(text, start, end);
  if (dot < 0) return mantissa;
  return mantissa / (POW10[end - dot - 1] as number);
}

/** A run of ASCII digits as an integer, or -1 when any character is not a digit or it is empty. */
export function parseDigits(text: string, start: number, end: number): number {
  if (end <= start || end - start > MAX_FAST_DIGITS) return -1;
  let value = 0;
  for (let i = start; i < end; i += 1) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Where a scan stopped; reused across calls so scanning allocates nothing. */
export interface Cursor {
  pos: number;
}

const COMMA = 44;

/**
 * Parses the decimal field that starts at `start` and runs to the next ',' or `end`, in the same
 * pass that finds the comma; cursor.pos is left on that comma (or on `end`). Same results as
 * parseDecimal on the field. This single pass is the hot loop for large files.
 */
export function scanDecimal(text: string, start: number, end: number, cursor: Cursor): number {
  let mantissa = 0;
  let dot = -1;
  let i = start;
  for (; i < end; i += 1) {
    const d = text.charCodeAt(i) - ZERO;
    if (d >= 0 && d <= 9) {
      mantissa = mantissa * 10 + d;
    } else if (d === COMMA - ZERO) {
      break;
    } else if (d !== DOT - ZERO || dot >= 0) {
      // Blanks, signs, exponents: rare, so take the general route for this field.
      let comma = text.indexOf(',', i);
      if (comma < 0 || comma > end) comma = end;
      cursor.pos = comma;
      return parseDecimal(text, start, comma);
    } else {
      dot = i;
    }
  }
  cursor.pos = i;
  const digits = dot < 0 ? i - start : i - start - 1;
  if (digits === 0) return Number.NaN;
  if (digits > MAX_FAST_DIGITS) return slowDecimal(text, start, i);
  return dot < 0 ? mantissa : mantissa / (POW10[i - dot - 1] as number);
}

/**
 * scanDecimal's fast path on bytes: a field of 1 to 15 ASCII digits with at most one '.', ended
 * by the first other byte (cursor.pos is left on it) or `end`. Its value is scanDecimal's on the
 * same text, computed the same way. NaN when no digit comes first (empty, a sign, a blank) or
 * there are more digits; a field that goes on otherwise (an exponent) stops before its comma. The
 * caller reads such a line the general way.
 */
export function scanPlainDecimal(bytes: Uint8Array, start: number, end: number, cursor: Cursor): number {
  let mantissa = 0;
  let dot = -1;
  let i = start;
  for (; i < end; i += 1) {
    const d = (bytes[i] as number) - ZERO;
    if (d >= 0 && d <= 9) mantissa = mantissa * 10 + d;
    else if (d === DOT - ZERO && dot < 0) dot = i;
    else break;
  }
  cursor.pos = i;
  const digits = dot < 0 ? i - start : i - start - 1;
  if (digits === 0 || digits > MAX_FAST_DIGITS) return Number.NaN;
  return dot < 0 ? mantissa : mantissa / (POW10[i - dot - 1] as number);
}
