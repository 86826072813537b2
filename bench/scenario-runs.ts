/**
 * `v20sim scenario run`, a fresh process from spawn to exit (bin/v20sim.js: the build when
 * current), with `-j 1` and with the default thread count, interleaved: over the repository's
 * scenarios/ (49 files, where the planner keeps one thread, so the two runs should match), and over
 * the same files copied COPIES times into a temporary directory (1,568 files, where it starts
 * workers on two cores or more): what the default's workers gain where it starts them.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PATTERNS, expandScenarioPaths } from '../src/scenario/files.js';
import { scenarioThreads } from '../src/scenario/pool-plan.js';
import { ROOT, timeV20sim, type Row } from './lib.js';

const SUITE = 'backtest';
const PASSES = 3;
/** Copies of scenarios/ in the larger set. */
const COPIES = 32;

/** Seconds from spawn to exit of `v20sim scenario run ARGS`. */
async function timeScenarioRun(args: readonly string[]): Promise<number> {
  return (await timeV20sim(['scenario', 'run', '--quiet', ...args])).seconds;
}

async function setRows(id: string, label: string, paths: readonly string[], threads: number): Promise<Row[]> {
  const serial: number[] = [];
  const auto: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    serial.push(await timeScenarioRun(['-j', '1', ...paths]));
    auto.push(await timeScenarioRun([...paths]));
    process.stdout.write(
      `  scenario run ${label} pass ${pass + 1}: -j 1 ${serial.at(-1)?.toFixed(2)} s, default ${auto.at(-1)?.toFixed(2)} s\n`,
    );
  }
  const one = Math.min(...serial);
  const chosen = Math.min(...auto);
  const ratios = serial.map((s, i) => (s / (auto[i] as number)).toFixed(2)).join(', ');
  return [
    {
      suite: SUITE,
      id: `${id}.serial`,
      name: `v20sim scenario run (${label}), -j 1`,
      value: one * 1000,
      unit: 'ms',
      note: 'best, process start to exit',
    },
    {
      suite: SUITE,
      id: `${id}.auto`,
      name: `v20sim scenario run (${label}), default threads`,
      value: chosen * 1000,
      unit: 'ms',
      note: `best, process start to exit; the planner takes ${threads} thread${threads === 1 ? '' : 's'} here`,
    },
    {
      suite: SUITE,
      id: `${id}.speedup`,
      name: `scenario run speed-up (${label}), default threads vs -j 1`,
      value: one / chosen,
      unit: 'x',
      note: `best over best; pass by pass ${ratios}; >= 1.00: the default is never slower`,
    },
  ];
}

export async function scenarioRows(): Promise<Row[]> {
  const bundled = path.join(ROOT, 'scenarios');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'v20sim-bench-scenarios-'));
  const copies = path.join(scratch, 'copies');
  mkdirSync(copies);
  // scenarios/real names its tick files as ../../../shared/...; the same link beside the copies
  // keeps that path true for copy-N/real, where a bare temporary directory has no shared/.
  symlinkSync(path.resolve(ROOT, '..', 'shared'), path.join(scratch, 'shared'));
  try {
    for (let i = 1; i <= COPIES; i += 1) cpSync(bundled, path.join(copies, `copy-${i}`), { recursive: true });
    // The threads the default takes, as the command works them out for the same paths.
    const threadsFor = (patterns: readonly string[]): number =>
      scenarioThreads({ files: expandScenarioPaths(patterns, ROOT).files, cwd: ROOT });
    return [
      ...(await setRows('scenario.run', 'scenarios/', [], threadsFor(DEFAULT_PATTERNS))),
      ...(await setRows('scenario.runCopies', `scenarios/ x ${COPIES}`, [copies], threadsFor([copies]))),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
