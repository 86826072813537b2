/**
 * A real redis-server for the queue tests: on a free loopback port, without persistence, in a
 * temporary folder, stopped by stopRedis(). REDIS_SERVER is undefined when none is installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CommandProcess } from '../support/serve-process.js';

/** /usr/bin/redis-server, else redis-server on PATH. */
export const REDIS_SERVER = [
  '/usr/bin/redis-server',
  ...(process.env['PATH'] ?? '').split(path.delimiter).map((dir) => path.join(dir, 'redis-server')),
].find((file) => file !== '' && existsSync(file));

export interface RedisServer {
  readonly port: number;
  readonly process: ChildProcess;
  readonly dir: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server not installed');
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-redis-'));
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return { port, process: child, dir };
}

export function stopRedis(redis: RedisServer | undefined): void {
  if (redis === undefined) return;
  redis.process.kill('SIGKILL');
  rmSync(redis.dir, { recursive: true, force: true });
}

/** Resolves once the process's stderr so far matches `re`; rejects if it exits first. */
export function waitForStderr(p: CommandProcess, re: RegExp, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let exited = false;
    void p.exited.then(() => (exited = true));
    const started = performance.now();
    const timer = setInterval(() => {
      const text = p.stderr.join('');
      const match = re.exec(text);
      if (match !== null) {
        clearInterval(timer);
        resolve(match[0]);
      } else if (exited || performance.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`no ${re} on stderr${exited ? ' before the process exited' : ` within ${timeoutMs} ms`}: ${text}`));
      }
    }, 50);
  });
}
