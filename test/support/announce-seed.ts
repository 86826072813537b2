/** Vitest global setup: says once, at the start of a run, which seed the property tests use. */
import { seedFromEnv } from './fast-check-seed.js';

export default function announceSeed(): void {
  const seed = seedFromEnv(process.env['FC_SEED']);
  console.log(
    seed === 'random'
      ? 'fast-check: a random seed per property (FC_SEED=random); a failure prints its seed'
      : `fast-check seed ${seed} (set FC_SEED=<integer> to replay another, FC_SEED=random to search)`,
  );
}
