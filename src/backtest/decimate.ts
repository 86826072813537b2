/**
 * Picks the points a chart needs when a series has more than it can show: the series is cut into
 * equal buckets of points and each bucket keeps its first point and, for every key series, the
 * point with the lowest and the highest value, so peaks and troughs survive. The result holds
 * indices in increasing order, the first and the last point always included.
 */
export function decimateIndices(length: number, keys: readonly (readonly number[])[], maxPoints: number): number[] {
  if (length <= maxPoints) return Array.from({ length }, (_, i) => i);
  const perBucket = 1 + 2 * keys.length;
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / perBucket));
  const size = length / buckets;
  const picked: number[] = [0];
  for (let b = 0; b < buckets; b += 1) {
    const from = Math.floor(b * size);
    const to = Math.min(length, Math.floor((b + 1) * size));
    if (to <= from) continue;
    const chosen = new Set<number>([from]);
    for (const key of keys) {
      let lo = from,
        hi = from;
      for (let i = from + 1; i < to; i += 1) {
        const v = key[i] as number;
        if (v < (key[lo] as number)) lo = i;
        if (v > (key[hi] as number)) hi = i;
      }
      chosen.add(lo);
      chosen.add(hi);
    }
    for (const i of [...chosen].sort((x, y) => x - y)) if (i > (picked[picked.length - 1] as number)) picked.push(i);
  }
  if (picked[picked.length - 1] !== length - 1) picked.push(length - 1);
  return picked;
}

export function pick<T>(values: readonly T[], indices: readonly number[]): T[] {
  return indices.map((i) => values[i] as T);
}
