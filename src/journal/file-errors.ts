// What can go wrong with a journal file, and what open() did about it.

/** What open() moved aside from a journal file. */
export interface JournalRecovery {
  readonly accountId: string;
  readonly file: string;
  /** Byte offset the journal was cut back to: the end of its last complete batch. */
  readonly offset: number;
  /** Bytes moved aside. */
  readonly bytes: number;
  readonly movedTo: string;
  readonly reason: string;
}

export class JournalCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly offset: number,
    detail: string,
  ) {
    super(`journal ${file}: line ${line} (byte ${offset}) ${detail}`);
    this.name = 'JournalCorruptError';
  }
}

/** A write to the journal failed: the account in memory is ahead of its file. */
export class JournalWriteError extends Error {
  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(`journal ${file}: write failed: ${(cause as Error).message}`);
    this.name = 'JournalWriteError';
  }
}
