import { describe, expect, it } from 'vitest';
import { DEFAULT_PATTERNS, expandScenarioPaths } from '../src/scenario/files.js';
import { resultText } from '../src/scenario/report.js';
import { runScenarioFile } from '../src/scenario/run-file.js';

/**
 * Every file in scenarios/ through the scenario runner, as `v20sim scenario run` runs them in CI:
 * one test per file, failing with the runner's diff and the place in the file.
 */
const cwd = process.cwd();
const { files } = expandScenarioPaths(DEFAULT_PATTERNS, cwd);

describe('scenarios/', () => {
  it('holds the project scenarios', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it.each(files)('%s', async (file) => {
    const result = await runScenarioFile(file, cwd);
    if (result.status !== 'passed') expect.fail(`\n${resultText(result)}`);
    // --update is for people: in CI a golden file must already exist and match.
    expect(result.goldens.every((g) => g.status === 'matched')).toBe(true);
  });
});
