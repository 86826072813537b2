import { existsSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import lockfile from 'proper-lockfile';

/**
 * The lock of a data directory: `v20sim.lock`, a directory made by proper-lockfile. mkdir is
 * atomic, so of two servers starting at once exactly one gets it; the holder touches its mtime
 * every UPDATE_MS, and a lock untouched for STALE_MS is stale (its holder was killed) and taken
 * over by the library (remove, then mkdir again; a holder whose lock was taken finds out at its
 * next touch: `onCompromised`). `v20sim.lock.owner` names the holder's pid, for the message only:
 * no decision rests on it but whether to wait for a lock to go stale or give up at once.
 */
export const LOCK_NAME = 'v20sim.lock';
const OWNER_NAME = 'v20sim.lock.owner';
/** proper-lockfile's minimum; a restart after a kill waits at most this long for the old lock to go stale. */
export const STALE_MS = 5000;
const UPDATE_MS = 1000;
/** Attempts, one a second, while a lock whose holder is gone goes stale. */
const STALE_WAIT_RETRIES = Math.ceil(STALE_MS / 1000) + 3;

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | undefined,
  ) {
    super(
      `data dir ${dir} is in use by ${pid === undefined ? 'another v20sim serve' : `process ${pid}`} (the lock ${join(dir, LOCK_NAME)} is held and kept fresh; stop that server first)`,
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, OWNER_NAME), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** An older v20sim's lock was a file holding a pid: gone with its (dead) process, it is removed once. */
function dropLegacyLockFile(dir: string): void {
  const file = join(dir, LOCK_NAME);
  if (!existsSync(file) || !lstatSync(file).isFile()) return;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

export type Release = () => void;

/**
 * Locks `dir` (which must exist). A lock held by a live process refuses at once; one whose holder
 * is gone (or unknown) is waited for until it goes stale. `onCompromised` is called if the lock
 * is later lost (its directory removed or touched by another process).
 */
export async function lockDataDir(dir: string, onCompromised: (error: Error) => void): Promise<Release> {
  dropLegacyLockFile(dir);
  const options = { lockfilePath: join(dir, LOCK_NAME), stale: STALE_MS, update: UPDATE_MS, realpath: false, onCompromised };
  try {
    await lockfile.lock(dir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const pid = ownerPid(dir);
    if (pid !== undefined && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
    try {
      await lockfile.lock(dir, { ...options, retries: { retries: STALE_WAIT_RETRIES, minTimeout: 1000, maxTimeout: 1000 } });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dir, ownerPid(dir));
      throw again;
    }
  }
  writeFileSync(join(dir, OWNER_NAME), `${process.pid}\n`);
  return () => {
    try {
      if (ownerPid(dir) === process.pid) unlinkSync(join(dir, OWNER_NAME));
    } catch {
      // Informational only.
    }
    lockfile.unlockSync(dir, { lockfilePath: join(dir, LOCK_NAME), realpath: false });
  };
}
