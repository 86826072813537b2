import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { compare, formatPath } from './compare.js';
import type { Scenario } from './model.js';
import type { DiffEntry, Failure, ScenarioResult } from './result.js';
import type { Location } from './source.js';
import { interpolateString } from './vars.js';

/**
 * The golden logs of a scenario against the run's journals (`journalText` of an account, or
 * undefined when the run has no such account), or rewritten with `update`.
 */
export function checkGoldens(
  scenario: Scenario,
  vars: ReadonlyMap<string, unknown>,
  journalText: (accountId: string) => string | undefined,
  update: boolean,
): { failures: Failure[]; goldens: ScenarioResult['goldens'] } {
  const failures: Failure[] = [];
  const goldens: { file: string; status: 'matched' | 'updated' | 'written' | 'differs' | 'missing' }[] = [];
  for (const g of scenario.goldens) {
    const accountId = String(interpolateString(g.account, vars));
    const text = journalText(accountId);
    if (text === undefined) {
      failures.push({ message: `golden ${g.display}: no account ${accountId}`, location: g.location });
      continue;
    }
    const exists = existsSync(g.path);
    const current = exists ? readFileSync(g.path, 'utf8') : undefined;
    if (update) {
      if (current !== text) {
        mkdirSync(dirname(g.path), { recursive: true });
        writeFileSync(g.path, text);
        goldens.push({ file: g.display, status: exists ? 'updated' : 'written' });
      } else {
        goldens.push({ file: g.display, status: 'matched' });
      }
      continue;
    }
    if (current === undefined) {
      goldens.push({ file: g.display, status: 'missing' });
      failures.push({ message: `golden ${g.display} does not exist: run with --update to write it`, location: g.location });
      continue;
    }
    if (current === text) {
      goldens.push({ file: g.display, status: 'matched' });
      continue;
    }
    goldens.push({ file: g.display, status: 'differs' });
    failures.push(goldenDiff(g.display, g.location, current, text));
  }
  return { failures, goldens };
}

/** The first differing line of a golden log, field by field when both sides are JSON. */
function goldenDiff(display: string, location: Location, expectedText: string, actualText: string): Failure {
  const expected = expectedText.split('\n');
  const actual = actualText.split('\n');
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i += 1;
  const e = expected[i];
  const a = actual[i];
  const lineNo = i + 1;
  const where = { ...location };
  const summary = `golden ${display} differs from line ${lineNo} (file has ${expected.filter((l) => l !== '').length} transactions, the run ${actual.filter((l) => l !== '').length}); run with --update after a deliberate change`;
  const diff: DiffEntry[] = [];
  try {
    if (e !== undefined && a !== undefined && e !== '' && a !== '') {
      for (const m of compare(JSON.parse(e) as unknown, JSON.parse(a) as unknown)) {
        diff.push({ path: `${display}:${lineNo} ${formatPath(m.path)}`, location: where, expected: m.expected, actual: m.actual });
      }
      // Keys only the run has (compare() is partial).
      for (const m of compare({ $exact: JSON.parse(e) as unknown }, JSON.parse(a) as unknown)) {
        if (m.note !== undefined)
          diff.push({ path: `${display}:${lineNo} ${formatPath(m.path)}`, location: where, expected: m.expected, actual: m.actual });
      }
    }
  } catch {
    // Not JSON: the raw lines below say it.
  }
  if (diff.length === 0)
    diff.push({
      path: `${display}:${lineNo}`,
      location: where,
      expected: e === undefined || e === '' ? '(end of file)' : e,
      actual: a === undefined || a === '' ? '(end of log)' : a,
    });
  return { message: summary, location, diff };
}
