import { readFileSync } from 'node:fs';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The package version, printed by --version and recorded with each serve run. */
export const VERSION = version();
