/** Thrown by a line parser for a line it cannot read; the reader adds the file and line number. */
export class LineError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'LineError';
  }
}

const SNIPPET_LIMIT = 120;

/** A malformed line in a tick file. Feeds never skip bad data, so this names exactly where it is. */
export class FeedParseError extends Error {
  readonly file: string;
  readonly line: number;
  readonly reason: string;

  constructor(file: string, line: number, reason: string, text: string, options?: { cause: unknown }) {
    const snippet = text.length > SNIPPET_LIMIT ? `${text.slice(0, SNIPPET_LIMIT)}...` : text;
    super(`${file}:${line}: ${reason}: ${JSON.stringify(snippet)}`, options);
    this.name = 'FeedParseError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}
