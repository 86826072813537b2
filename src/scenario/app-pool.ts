/**
 * The v3 apps of this thread's scenario runs, kept between files: building one is Fastify's route
 * registration, about 9 ms, most of what a small scenario file costs (bench/RESULTS.md). A file
 * takes an idle app built with the same base URL and binds its own simulator to it; the app
 * answers as a fresh one would (ReusableApp: its RequestIDs, market data and kept views start
 * afresh). An app that listened (a stream step) is closed instead of kept.
 */
import { buildReusableApp, type ApiOptions, type ReusableApp } from '../api/index.js';

/** Idle apps by the base URL they were built with (undefined: none). A thread runs one file at a time, so one each is enough. */
const idle = new Map<string | undefined, ReusableApp>();

/** An app serving `options.engine`: an idle one of this thread bound to it, else a new one. */
export async function leaseApp(options: ApiOptions): Promise<ReusableApp> {
  const kept = idle.get(options.baseUrl);
  if (kept !== undefined) {
    idle.delete(options.baseUrl);
    try {
      kept.bind(options);
      return kept;
    } catch {
      // An app that cannot serve these options is dropped; a fresh one can.
      await kept.app.close();
    }
  }
  return buildReusableApp(options);
}

/**
 * Gives back an app leased with `baseUrl`: unbound and kept for the next file, or closed when it
 * listened or one is kept already.
 */
export async function releaseApp(lease: ReusableApp, baseUrl: string | undefined): Promise<void> {
  if (lease.app.server.listening || idle.has(baseUrl)) {
    await lease.app.close();
    return;
  }
  lease.unbind();
  idle.set(baseUrl, lease);
}
