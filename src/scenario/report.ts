import type { Location } from './source.js';
import type { Failure, ScenarioResult, StepResult } from './result.js';

export type ReporterName = 'pretty' | 'junit' | 'tap';
export const REPORTERS: readonly ReporterName[] = ['pretty', 'junit', 'tap'];

export interface ReportOptions {
  /** ANSI colours (pretty only). */
  readonly color?: boolean;
  /** Pretty: list the steps of failing files only. */
  readonly quiet?: boolean;
}

export function where(l: Location): string {
  return `${l.file}:${l.line}:${l.col}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : by + line))
    .join('\n');
}

/** A failure as text: the message, each difference as - expected / + actual with its place, then what was there. */
export function failureText(f: Failure): string {
  const lines = [`${f.message}  (${where(f.location)})`];
  for (const d of f.diff ?? []) {
    lines.push(`  ${d.path}  (${where(d.location)})`);
    lines.push(`    - ${d.expected}`);
    lines.push(`    + ${d.actual}`);
    if (d.note !== undefined) lines.push(`    note: ${d.note}`);
  }
  if (f.actual !== undefined) {
    lines.push('  actual:');
    lines.push(indent(f.actual, '    '));
  }
  return lines.join('\n');
}

/** Everything wrong with one file, for a test runner's message or a CI annotation. */
export function resultText(r: ScenarioResult): string {
  if (r.status === 'invalid')
    return [`${r.file}: invalid scenario file`, ...r.problems.map((p) => `  ${where(p.location)}: ${p.message}`)].join('\n');
  const out: string[] = [];
  for (const s of r.steps) {
    if (s.status !== 'failed') continue;
    out.push(`step ${s.index + 1} ${s.label}  (${where(s.location)})`);
    for (const f of s.failures) out.push(indent(failureText(f), '  '));
  }
  for (const f of r.failures) out.push(failureText(f));
  return out.length === 0 ? `${r.file}: passed` : [`${r.file}: ${r.name}`, ...out].join('\n');
}

/** The process exit code for a run: 2 if any file is invalid, else 1 if any failed, else 0. */
export function exitCodeOf(results: readonly ScenarioResult[]): number {
  if (results.some((r) => r.status === 'invalid')) return 2;
  if (results.some((r) => r.status === 'failed')) return 1;
  return 0;
}

export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly invalid: number;
}

export function tally(results: readonly ScenarioResult[]): Tally {
  return {
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    invalid: results.filter((r) => r.status === 'invalid').length,
  };
}

const ANSI = {
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  dim: '\u001b[2m',
  bold: '\u001b[1m',
  reset: '\u001b[0m',
} as const;

/** The pretty reporter, one file at a time (so a long run shows progress). */
export function prettyResult(r: ScenarioResult, options: ReportOptions = {}): string {
  const paint = (code: keyof typeof ANSI, text: string): string => (options.color === true ? `${ANSI[code]}${text}${ANSI.reset}` : text);
  const lines: string[] = [];
  if (r.status === 'invalid') {
    lines.push(`${paint('yellow', 'INVALID')} ${r.file}`);
    for (const p of r.problems) lines.push(`  ${where(p.location)}: ${p.message}`);
    return `${lines.join('\n')}\n`;
  }
  const head = r.status === 'passed' ? paint('green', 'PASS') : paint('red', 'FAIL');
  lines.push(`${head} ${r.file}  ${paint('bold', r.name)}  ${paint('dim', `(${r.steps.length} steps, ${r.durationMs} ms)`)}`);
  if (options.quiet !== true || r.status !== 'passed') {
    for (const s of r.steps) lines.push(stepLine(s, paint));
  }
  for (const g of r.goldens)
    if (g.status !== 'matched')
      lines.push(
        `  ${g.status === 'updated' || g.status === 'written' ? paint('yellow', '↻') : paint('red', '✗')} golden ${g.file} ${g.status}`,
      );
  for (const f of r.failures) lines.push(indent(paint('red', failureText(f)), '    '));
  return `${lines.join('\n')}\n`;
}

function stepLine(s: StepResult, paint: (code: keyof typeof ANSI, text: string) => string): string {
  const mark = s.status === 'passed' ? paint('green', '✓') : s.status === 'failed' ? paint('red', '✗') : paint('dim', '-');
  const text = `  ${mark} ${String(s.index + 1).padStart(2)} ${s.status === 'skipped' ? paint('dim', `${s.label} (skipped)`) : s.label}`;
  if (s.status !== 'failed') return text;
  return [`${text}  ${paint('dim', where(s.location))}`, ...s.failures.map((f) => indent(paint('red', failureText(f)), '       '))].join(
    '\n',
  );
}

export function prettySummary(results: readonly ScenarioResult[], elapsedMs: number): string {
  const t = tally(results);
  const parts = [`${t.passed} passed`];
  if (t.failed > 0) parts.push(`${t.failed} failed`);
  if (t.invalid > 0) parts.push(`${t.invalid} invalid`);
  return `\nScenarios: ${parts.join(', ')} (${results.length} file${results.length === 1 ? '' : 's'}) in ${(elapsedMs / 1000).toFixed(1)} s\n`;
}

function xml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped (ANSI escapes, NULs).
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** JUnit XML: one testsuite, one testcase per file; failures and invalid files (as errors) carry the full text. */
export function junitReport(results: readonly ScenarioResult[]): string {
  const t = tally(results);
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  const total = results.reduce((s, r) => s + r.durationMs, 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="v20sim scenarios" tests="${results.length}" failures="${t.failed}" errors="${t.invalid}" time="${seconds(total)}">`,
  );
  out.push(
    `  <testsuite name="v20sim scenarios" tests="${results.length}" failures="${t.failed}" errors="${t.invalid}" skipped="0" time="${seconds(total)}">`,
  );
  for (const r of results) {
    const classname = r.file.replace(/\.(ya?ml|json)$/i, '').replace(/[\\/]/g, '.');
    out.push(`    <testcase classname="${xml(classname)}" name="${xml(r.name)}" file="${xml(r.file)}" time="${seconds(r.durationMs)}">`);
    if (r.status === 'failed') {
      const first = r.steps.find((s) => s.status === 'failed')?.failures[0] ?? r.failures[0];
      out.push(
        `      <failure message="${xml(first === undefined ? 'failed' : `${where(first.location)}: ${first.message}`)}" type="ScenarioFailure">${xml(resultText(r))}</failure>`,
      );
    } else if (r.status === 'invalid') {
      const first = r.problems[0];
      out.push(
        `      <error message="${xml(first === undefined ? 'invalid' : `${where(first.location)}: ${first.message}`)}" type="InvalidScenario">${xml(resultText(r))}</error>`,
      );
    }
    if (r.steps.length > 0)
      out.push(
        `      <system-out>${xml(r.steps.map((s) => `${s.status === 'passed' ? 'ok' : s.status} ${s.index + 1} ${s.label}`).join('\n'))}</system-out>`,
      );
    out.push('    </testcase>');
  }
  out.push('  </testsuite>');
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function yamlBlock(text: string): string {
  return indent(text, '    ');
}

/** TAP version 13: one test per file, a YAML diagnostic block for failures and invalid files. */
export function tapReport(results: readonly ScenarioResult[]): string {
  const out = ['TAP version 13', `1..${results.length}`];
  results.forEach((r, i) => {
    const ok = r.status === 'passed';
    out.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${r.name.replace(/#/g, '\\#')} # ${r.file}`);
    if (ok) return;
    const first =
      r.status === 'invalid' ? r.problems[0]?.location : (r.steps.find((s) => s.status === 'failed')?.location ?? r.failures[0]?.location);
    out.push('  ---');
    out.push(`  severity: ${r.status === 'invalid' ? 'error' : 'fail'}`);
    if (first !== undefined) out.push(`  at: ${JSON.stringify(where(first))}`);
    out.push('  message: |-');
    out.push(yamlBlock(resultText(r)));
    out.push('  ...');
  });
  return `${out.join('\n')}\n`;
}
