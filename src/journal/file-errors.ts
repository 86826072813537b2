// What can go wrong with a journal file, and what open() did about it.

/** What open() moved aside from a journal file. */
export interface JournalRecovery {
  readonly accountId: string;
  readonly file: string;
  /** Byte offset the journal was cut back to: the end of its last complete batch. */
  readonly offset: number;
  /** Bytes moved aside. */
  readonly bytes: number;
  /** Where the bytes went; undefined when none were cut (an emptied file). */
  readonly movedTo: string | undefined;
  readonly reason: string;
  /**
   * Set when acknowledged transactions were lost and the operator accepted it (recoverTruncated):
   * what was expected, and the IDs that stay taken (a TRANSACTIONS_LOST record at the cut).
   */
  readonly loss?: { readonly detail: string; readonly fromID: string | undefined; readonly toID: string | undefined };
}

/** One journal that lost acknowledged transactions. */
export interface JournalDamage {
  readonly accountId: string;
  readonly file: string;
  readonly what: string;
  readonly detail: string;
}

/** open() found journals shorter than, or different from, their commit records: nothing was changed. */
export class JournalDamagedError extends Error {
  constructor(readonly damages: readonly JournalDamage[]) {
    super(damages.map((d) => `journal ${d.file} is ${d.what}: ${d.detail}`).join('; '));
    this.name = 'JournalDamagedError';
  }
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
