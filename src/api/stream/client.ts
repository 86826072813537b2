import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface StreamClientOptions {
  /** Bytes the client may have unsent (queued here and in the socket) before it is dropped. */
  readonly bufferMax: number;
  readonly heartbeatMs: number;
  /** The heartbeat line, built when it is due. */
  heartbeat(): string;
  /** Called once when the stream ends, however it ends. */
  onClose(): void;
}

/**
 * Clients that follow the same feed flush the very same line strings in the same turn: the
 * first one's encoded bytes are kept and handed to the others, so a hundred clients cost one
 * join and one UTF-8 encoding. Same string objects in the same order are the same bytes.
 */
let lastLines: readonly string[] = [];
let lastChunk: Buffer = Buffer.alloc(0);

function encodeLines(lines: readonly string[]): Buffer {
  if (lines.length === lastLines.length) {
    let same = true;
    for (let i = 0; i < lines.length; i += 1) {
      if (lines[i] !== lastLines[i]) {
        same = false;
        break;
      }
    }
    if (same) return lastChunk;
  }
  lastLines = lines;
  lastChunk = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  return lastChunk;
}

/**
 * One NDJSON stream response (written straight to the socket after Fastify let go of it). Lines
 * are queued and written once per event-loop turn; a client that lets more than `bufferMax` bytes
 * pile up is dropped rather than buffered without end.
 */
export class StreamClient {
  private pending: string[] = [];
  private pendingBytes = 0;
  private flushScheduled: ReturnType<typeof setImmediate> | undefined;
  private readonly heartbeatTimer: ReturnType<typeof setInterval>;
  private closed = false;
  /** Why the stream ended, once it has. */
  endReason: 'client' | 'slow' | 'server' | undefined;

  constructor(
    private readonly raw: ServerResponse,
    headers: OutgoingHttpHeaders,
    private readonly options: StreamClientOptions,
  ) {
    raw.on('close', () => this.close('client'));
    raw.on('error', () => this.close('client'));
    raw.writeHead(200, headers);
    raw.flushHeaders();
    this.heartbeatTimer = setInterval(() => this.push(options.heartbeat()), options.heartbeatMs);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues one line (without its newline). */
  push(line: string): void {
    if (this.closed) return;
    this.pending.push(line);
    // UTF-16 length: equal to the UTF-8 byte count for the ASCII v20 sends, close enough otherwise.
    this.pendingBytes += line.length + 1;
    if (this.raw.writableLength + this.pendingBytes > this.options.bufferMax) {
      this.drop('slow');
      return;
    }
    this.flushScheduled ??= setImmediate(() => this.flush());
  }

  /** Ends the stream from this side: a slow client, or the server shutting down. */
  drop(reason: 'slow' | 'server'): void {
    if (this.closed) return;
    this.close(reason);
    // Destroy rather than end: a client that does not read would hold the queued bytes forever.
    this.raw.destroy();
  }

  private flush(): void {
    this.flushScheduled = undefined;
    if (this.closed || this.pending.length === 0) return;
    const chunk = encodeLines(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    this.raw.write(chunk);
    if (this.raw.writableLength > this.options.bufferMax) this.drop('slow');
  }

  private close(reason: 'client' | 'slow' | 'server'): void {
    if (this.closed) return;
    this.closed = true;
    this.endReason = reason;
    clearInterval(this.heartbeatTimer);
    if (this.flushScheduled !== undefined) clearImmediate(this.flushScheduled);
    this.flushScheduled = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    this.options.onClose();
  }
}
