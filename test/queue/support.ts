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
  readonly dir: string;
  /** With an append-only file: a restart keeps the queue. */
  readonly persist: boolean;
  process: ChildProcess;
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

function spawnRedis(port: number, dir: string, persist: boolean): Promise<ChildProcess> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server not installed');
  const persistence = persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
}

/** redis-server on a free loopback port, without persistence unless asked, in a temporary folder. */
export async function startRedis(persist = false): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'v20sim-redis-'));
  return { port, dir, persist, process: await spawnRedis(port, dir, persist) };
}

/** Stops Redis (SIGTERM: it writes its data out if it keeps any) and starts it again on the same port and folder. */
export async function restartRedis(redis: RedisServer): Promise<void> {
  const exited = new Promise((resolve) => redis.process.once('exit', resolve));
  redis.process.kill('SIGTERM');
  await exited;
  redis.process = await spawnRedis(redis.port, redis.dir, redis.persist);
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
