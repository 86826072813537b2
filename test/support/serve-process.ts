/**
 * `v20sim serve` (or any v20sim command) as a real child process, for tests that must see the
 * command a user runs: its stdout lines, its exit, and the URL it prints. Every child is tracked
 * so the test file can kill what is still running in its afterAll (`killAll`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children = new Set<ChildProcess>();

export interface CommandProcess {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<string>;
}

export interface ServeProcess extends CommandProcess {
  /** The base URL from the `listening URL` line. */
  readonly url: string;
}

export interface CommandOptions {
  /** The CLI module to run with plain node (a built bundle); default: src/cli/main.ts through tsx. */
  readonly entry?: string;
  /**
   * A file-size limit (`ulimit -f`, in 512-byte blocks) for the child: a write past it fails with
   * EFBIG, the way a full disk fails one. tsx's on-disk cache is off, so only v20sim's files count.
   */
  readonly fileSizeBlocks?: number;
  /** Variables added to the child's environment (e.g. TMPDIR, so its scratch files go where the test removes them). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Runs the CLI from source (through tsx), so a test needs no build. */
export function runCommand(args: readonly string[], options: CommandOptions = {}): CommandProcess {
  const node =
    options.entry === undefined
      ? [process.execPath, '--import', 'tsx', 'src/cli/main.ts', ...args]
      : [process.execPath, options.entry, ...args];
  const child =
    options.fileSizeBlocks === undefined
      ? spawn(node[0] as string, node.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } })
      : spawn('/bin/sh', ['-c', `ulimit -f ${options.fileSizeBlocks} && exec "$@"`, 'sh', ...node], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, ...options.env, TSX_DISABLE_CACHE: '1' },
        });
  children.add(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve: (line: string) => void }[] = [];
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() as string;
    for (const line of lines) {
      stdout.push(line);
      for (const w of [...waiters])
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (re: RegExp, timeoutMs = 60_000): Promise<string> => {
    const seen = stdout.find((l) => re.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line ${re} within ${timeoutMs} ms; stdout: ${stdout.join('\n')}; stderr: ${stderr.join('')}`)),
        timeoutMs,
      );
      waiters.push({
        re,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`process exited (${code ?? signal}) before ${re}; stderr: ${stderr.join('')}`));
      });
    });
  };
  return { child, stdout, stderr, exited, waitFor };
}

/** `v20sim serve` on loopback and an OS-chosen port; resolves once it listens. */
export async function startServeProcess(args: readonly string[], options: CommandOptions = {}): Promise<ServeProcess> {
  const p = runCommand(['serve', '--host', '127.0.0.1', '--port', '0', ...args], options);
  const first = await p.waitFor(/^listening /);
  if (p.stdout[0] !== first) throw new Error(`serve printed before listening: ${p.stdout.join('\n')}`);
  return { ...p, url: first.slice('listening '.length) };
}

/**
 * `v20sim serve` on a config file: writes `config` as `dir/serve.json` and starts the server on it,
 * without generated prices unless `args` say otherwise (the tests push their own ticks).
 */
export function startServeWithConfig(
  dir: string,
  config: Readonly<Record<string, unknown>>,
  args: readonly string[] = ['--no-generator'],
): Promise<ServeProcess> {
  const file = path.join(dir, 'serve.json');
  writeFileSync(file, JSON.stringify(config));
  return startServeProcess(['--config', file, ...args]);
}

/** A request with a bearer token and an optional JSON body; the status and the JSON answer. */
export async function jsonCall(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** SIGKILLs every child still running; call from afterAll. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}
