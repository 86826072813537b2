/**
 * Comma-separated field bounds of one line, written into a reused Int32Array (start, end pairs)
 * so splitting allocates nothing. Returns the field count, or max + 1 when there are more than
 * `max` fields. Quoted fields are not supported: tick files have no commas inside values.
 */
export function splitFields(text: string, start: number, end: number, bounds: Int32Array, max: number): number {
  let count = 0;
  let from = start;
  for (;;) {
    let comma = text.indexOf(',', from);
    if (comma < 0 || comma > end) comma = end;
    if (count === max) return max + 1;
    bounds[2 * count] = from;
    bounds[2 * count + 1] = comma;
    count += 1;
    if (comma === end) return count;
    from = comma + 1;
  }
}

export function fieldBounds(max: number): Int32Array {
  return new Int32Array(2 * max);
}
