/**
 * A small HTTP proxy on loopback in front of a `v20sim serve`, for the download and record tests:
 * it can answer a request itself instead of forwarding it (429, 503, a hang), cut every open
 * connection (a network drop), or freeze them (a connection that stays open but carries no more
 * lines, i.e. lost heartbeats). Requests seen are counted by path.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What to do with request number `n` (0-based): forward it, or handle it here. */
export type ProxyRule = (n: number, req: IncomingMessage, res: ServerResponse) => 'forward' | 'handled';

export interface V20Proxy {
  readonly url: string;
  /** Every request's path and query, in order. */
  readonly seen: string[];
  /** Bytes of each forwarded response passed on so far, by request number. */
  readonly bytes: number[];
  rule: ProxyRule;
  /** Destroys every open connection, client side and upstream. */
  dropAll(): void;
  /**
   * The responses open now pass no more bytes (their connections stay open: a silent stream).
   * Connections made afterwards, a client's reconnect among them, are forwarded as usual.
   */
  freeze(): void;
  /** The frozen responses pass bytes again (those dropped meanwhile stay lost). */
  freezeOff(): void;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<V20Proxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const pending = new Set<{ destroy(): void }>();
  /** Responses open now, and those frozen. */
  const open = new Set<number>();
  const frozen = new Set<number>();
  const seen: string[] = [];
  const bytes: number[] = [];
  const proxy: V20Proxy = {
    url: '',
    seen,
    bytes,
    rule: () => 'forward',
    dropAll() {
      for (const p of pending) p.destroy();
      for (const s of sockets) s.destroy();
    },
    freeze() {
      for (const n of open) frozen.add(n);
    },
    freezeOff() {
      frozen.clear();
    },
    close: () =>
      new Promise((resolve) => {
        proxy.dropAll();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const n = seen.length;
    seen.push(req.url ?? '');
    bytes.push(0);
    if (proxy.rule(n, req, res) === 'handled') return;
    const out = httpRequest(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        open.add(n);
        answer.on('close', () => open.delete(n));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          if (frozen.has(n)) return;
          bytes[n] = (bytes[n] ?? 0) + chunk.length;
          res.write(chunk);
        });
        answer.on('end', () => {
          if (!frozen.has(n)) res.end();
        });
      },
    );
    pending.add(out);
    out.on('close', () => pending.delete(out));
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  (proxy as { url: string }).url = `http://127.0.0.1:${address.port}`;
  return proxy;
}

/** A port nothing listens on: one the OS gave a server that is closed again. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address !== null && typeof address !== 'string' ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
