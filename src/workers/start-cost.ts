/**
 * What starting a worker thread costs before it runs its first job at full speed (milliseconds):
 * from the built JavaScript a worker took 358 ms to its first jobs, through tsx from the TypeScript
 * sources 790 ms, and its first jobs run slower still (nothing compiled yet). The sweep and scenario
 * planners size their threads by it, so a checkout without a current dist/ asks more work of each.
 */
export const WORKER_START_MS = { built: 400, sources: 1200 } as const;

/** How many times more work a thread must get when its workers start from the sources. */
export const SOURCES_START_FACTOR = WORKER_START_MS.sources / WORKER_START_MS.built;
