import type { Tick } from '../../domain/tick.js';
import { formatRfc3339 } from '../../domain/time.js';
import { FeedParseError } from './errors.js';
import { DEFAULT_CHUNK_SIZE } from './file-chunks.js';
import { lineEnd, readTextBlocks } from './lines.js';

/**
 * Reads one line, given as the span text[start, end) without its terminator. Returns null for a
 * line that is legitimately not a tick (a header, a heartbeat) and throws for a malformed one.
 * Empty lines never reach a parser.
 */
export type LineParser = (text: string, start: number, end: number, line: number) => Tick | null;

/**
 * The ticks of a file, one parser call per non-empty line. Any error from the parser becomes a
 * FeedParseError naming the file and the 1-based line number, so bad data is never skipped.
 * `onBytes` hears of each block once its lines are parsed (see FeedOptions.onBytes); with
 * `inTimeOrder` a tick older than the one before it is such an error too (FeedOptions.inTimeOrder).
 */
export function* parseTickLines(
  file: string,
  parser: LineParser,
  chunkSize: number = DEFAULT_CHUNK_SIZE,
  onBytes?: (bytes: number) => void,
  inTimeOrder = false,
): Generator<Tick> {
  let line = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const text of readTextBlocks(file, chunkSize)) {
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      let newline = text.indexOf('\n', pos);
      if (newline < 0) newline = length;
      const end = lineEnd(text, pos, newline);
      line += 1;
      if (end > pos) {
        let tick: Tick | null;
        try {
          tick = parser(text, pos, end, line);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new FeedParseError(file, line, reason, text.slice(pos, end), { cause: error });
        }
        if (tick !== null) {
          if (inTimeOrder) {
            if (tick.time < last)
              throw new FeedParseError(
                file,
                line,
                `the time goes back to ${formatRfc3339(tick.time)} after ${formatRfc3339(last)} (ticks must be in time order)`,
                text.slice(pos, end),
              );
            last = tick.time;
          }
          yield tick;
        }
      }
      pos = newline + 1;
    }
    onBytes?.(length);
  }
}
