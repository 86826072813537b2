/**
 * Start-up, as a user waits for it: process start to `--help` printed, and to the first answered
 * request of `v20sim serve` against a bare Fastify server started the same way. Each case runs
 * in a fresh process, the cases interleaved round by round so that load drifts hit all of them
 * alike; medians with min/max. Uses the built CLI (dist/) when present, as bin/v20sim.js does:
 * run `npm run build` first to measure what an installed package does.
 *
 *   node --import tsx bench/startup.ts [rounds]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/v20sim.js');
const BARE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/v3/accounts', async () => ({ accounts: [] }));
await app.listen({ host: '127.0.0.1', port: 0 });
console.log('listening http://127.0.0.1:' + app.server.address().port);
`;

/** Milliseconds from spawn to exit. */
function untilExit(args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - start));
  });
}

/** Milliseconds from spawn to the first 200 of GET /v3/accounts, then the server is killed. */
function untilFirstAnswer(args: string[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const m = /^listening (\S+)/m.exec(out);
      if (m === null || out.includes('\u0000')) return;
      out += '\u0000';
      fetch(`${m[1]}/v3/accounts`, { headers: { authorization: 'Bearer bench' } })
        .then((res) => {
          const ms = performance.now() - start;
          child.kill('SIGKILL');
          if (res.status !== 200) reject(new Error(`status ${res.status}`));
          else resolve(ms);
        })
        .catch(reject);
    });
    child.on('error', reject);
  });
}

const CASES: Record<string, () => Promise<number>> = {
  'node -e 0': () => untilExit(['-e', '0']),
  'v20sim --help': () => untilExit([BIN, '--help']),
  'bare Fastify, first answer': () => untilFirstAnswer(['--input-type=module', '-e', BARE]),
  'v20sim serve, first answer': () =>
    untilFirstAnswer([BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--token', 'bench', '--no-generator', '--clock', 'manual']),
};

const rounds = Number(process.argv[2] ?? 9);
const times: Record<string, number[]> = Object.fromEntries(Object.keys(CASES).map((k) => [k, []]));
const load = loadavg()[0];
for (let r = 0; r < rounds; r += 1) for (const [name, run] of Object.entries(CASES)) times[name]?.push(await run());
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(
  `start-up, ${rounds} rounds, ${existsSync(path.join(ROOT, 'dist/cli/main.js')) ? 'built dist/' : 'TypeScript through tsx'}, load ${load?.toFixed(2)} -> ${loadavg()[0]?.toFixed(2)}`,
);
for (const [name, xs] of Object.entries(times))
  console.log(
    `${name.padEnd(30)} median ${median(xs).toFixed(0).padStart(5)} ms  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`,
  );
