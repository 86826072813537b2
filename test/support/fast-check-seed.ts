/**
 * Property tests draw from one fixed seed, so a run in CI passes or fails on the code alone, never
 * on luck. FC_SEED=<integer> replays another seed; FC_SEED=random lets fast-check pick one per
 * property (`npm run test:random-seeds`, the wider search). A failure prints its seed and path
 * either way: add that counterexample as a fixed case.
 */
import fc from 'fast-check';

/** The seed every property uses unless FC_SEED says otherwise. */
export const DEFAULT_SEED = 20_241_126;

export function seedFromEnv(value: string | undefined): number | 'random' {
  if (value === undefined || value === '') return DEFAULT_SEED;
  if (value === 'random') return 'random';
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer or "random", not ${JSON.stringify(value)}`);
  return seed;
}

const seed = seedFromEnv(process.env['FC_SEED']);
if (seed !== 'random') fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
