import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** What `v20sim scenario run` runs without arguments. */
export const DEFAULT_PATTERNS: readonly string[] = ['scenarios/**/*.{yaml,yml,json}'];
/** Files a directory argument contributes. */
const SCENARIO_FILE_RE = /\.(ya?ml|json)$/i;
/** Most files one run may expand to. */
const SCENARIO_FILES_MAX = 100_000;

function expandBraces(pattern: string): string[] {
  const m = /\{([^{}]*)\}/.exec(pattern);
  if (m === null) return [pattern];
  const before = pattern.slice(0, m.index);
  const after = pattern.slice(m.index + m[0].length);
  return (m[1] as string).split(',').flatMap((alt) => expandBraces(before + alt + after));
}

function segmentRegex(segment: string): string {
  let out = '';
  for (const ch of segment) {
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/** `a/**\/b*.yaml` as a regex over '/'-separated paths relative to the walk root. */
function globRegex(segments: readonly string[]): RegExp {
  let re = '';
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === '**') re += last ? '.*' : '(?:[^/]+/)*';
    else re += segmentRegex(seg) + (last ? '' : '/');
  });
  return new RegExp(`^${re}$`);
}

function* walk(dir: string, root: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path, root);
    else if (entry.isFile()) yield relative(root, path).split(sep).join('/');
  }
}

/**
 * Scenario files named by paths, directories (every .yaml/.yml/.json below) and globs (`*`, `?`,
 * `**`, `{a,b}`), relative to `cwd`. Sorted and without duplicates, so a run's order does not
 * depend on the file system. Returns the patterns that matched nothing, too.
 */
export function expandScenarioPaths(patterns: readonly string[], cwd: string): { files: string[]; unmatched: string[] } {
  const found = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    let hits = 0;
    for (const p of expandBraces(pattern)) {
      const absolute = resolve(cwd, p);
      if (!/[*?]/.test(p)) {
        if (!existsSync(absolute)) continue;
        if (statSync(absolute).isDirectory()) {
          for (const f of walk(absolute, absolute)) {
            if (SCENARIO_FILE_RE.test(f)) {
              found.add(relative(cwd, join(absolute, f)));
              hits += 1;
            }
          }
        } else {
          found.add(relative(cwd, absolute) || p);
          hits += 1;
        }
        continue;
      }
      const parts = p.split('/');
      const firstGlob = parts.findIndex((s) => /[*?]/.test(s));
      const base = resolve(cwd, parts.slice(0, firstGlob).join('/') || '.');
      const re = globRegex(parts.slice(firstGlob));
      for (const f of walk(base, base)) {
        if (!re.test(f)) continue;
        found.add(relative(cwd, join(base, f)));
        hits += 1;
        if (found.size > SCENARIO_FILES_MAX) throw new Error(`more than ${SCENARIO_FILES_MAX} scenario files`);
      }
    }
    if (hits === 0) unmatched.push(pattern);
  }
  const files = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, unmatched };
}
