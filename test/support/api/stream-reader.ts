/**
 * Reads an NDJSON stream response from a listening server line by line, with a timeout per wait.
 */
import http, { type IncomingHttpHeaders } from 'node:http';

export interface StreamReader {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Raw chunks as they arrived (to check that every line ends in its chunk). */
  readonly chunks: string[];
  /** Resolves with the next parsed line whose predicate holds, skipping others. */
  next(predicate?: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Every parsed line so far. */
  readonly lines: Record<string, unknown>[];
  close(): void;
  /** Resolves when the server ends the response. */
  readonly ended: Promise<void>;
}

export function openStream(port: number, path: string, headers: Record<string, string>): Promise<StreamReader> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.setEncoding('utf8');
      const lines: Record<string, unknown>[] = [];
      const chunks: string[] = [];
      let buffer = '';
      let cursor = 0;
      let wake: (() => void) | undefined;
      let endResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => {
        endResolve = r;
      });
      res.on('data', (chunk: string) => {
        chunks.push(chunk);
        buffer += chunk;
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const text = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (text.length > 0) lines.push(JSON.parse(text) as Record<string, unknown>);
          nl = buffer.indexOf('\n');
        }
        wake?.();
      });
      res.on('end', () => {
        // An error answer is one JSON body without a trailing newline.
        if (buffer.trim().length > 0) {
          try {
            lines.push(JSON.parse(buffer) as Record<string, unknown>);
          } catch {
            // left for the test to see in chunks
          }
        }
        endResolve();
        wake?.();
      });
      res.on('error', () => endResolve());
      res.on('close', () => endResolve());
      const reader: StreamReader = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        chunks,
        lines,
        ended,
        close: () => req.destroy(),
        async next(predicate = () => true, timeoutMs = 3000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            while (cursor < lines.length) {
              const line = lines[cursor] as Record<string, unknown>;
              cursor += 1;
              if (predicate(line)) return line;
            }
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no matching stream line within ${timeoutMs} ms; got ${JSON.stringify(lines).slice(-1000)}`);
            await new Promise<void>((r) => {
              const timer = setTimeout(r, left);
              wake = () => {
                clearTimeout(timer);
                r();
              };
            });
            wake = undefined;
          }
        },
      };
      resolve(reader);
    });
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
  });
}
