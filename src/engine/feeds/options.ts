export type FeedFormat = 'csv' | 'ndjson' | 'lean' | 'truefx' | 'histdata' | 'candles';

export const FEED_FORMATS: readonly FeedFormat[] = ['csv', 'ndjson', 'lean', 'truefx', 'histdata', 'candles'];

export interface FeedOptions {
  /** Detected from the file name and first line when absent (see detectFormat). */
  readonly format?: FeedFormat;
  /**
   * For formats whose lines do not name the instrument (lean, truefx, histdata, csv without an
   * instrument column, ndjson lines without one). Each format documents its fallback.
   */
  readonly instrument?: string;
  /**
   * Progress: called with the length of each block of text once its lines are parsed (the file's
   * decompressed bytes, for the ASCII text tick files are). Compare with decompressedSize(file).
   */
  readonly onBytes?: (bytes: number) => void;
  /**
   * Refuse a tick older than the one before it in the same file, naming the file and line (a
   * FeedParseError): a backtest cannot go back in time, and the engine alone could only say that
   * some tick was older than its clock. Line formats only.
   */
  readonly inTimeOrder?: boolean;
}
