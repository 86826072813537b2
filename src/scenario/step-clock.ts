/** The steps that move simulated time: advance (to a time, by a duration, by ticks, to the end) and tick/ticks. */
import type { Micros } from '../domain/time.js';
import type { ActionOf } from './model.js';
import { tickOf } from './prices.js';
import { StepError, type ScenarioRun, type StepOutcome } from './run-state.js';
import { counted, shortTime } from './texts.js';

/** Feeds the price sources' ticks up to `t` (inclusive); how many. */
function feedUntil(run: ScenarioRun, t: Micros): number {
  let n = 0;
  for (let tick = run.feed.peek(); tick !== undefined && tick.time <= t; tick = run.feed.peek()) {
    run.engine.pushTick(run.feed.take() as NonNullable<typeof tick>);
    n += 1;
  }
  return n;
}

/** Feeds the ticks up to `t`, then moves the clock to `t` (never back). */
function advanceClockTo(run: ScenarioRun, t: Micros): StepOutcome {
  const { engine } = run;
  if (t < engine.now) throw new StepError(`cannot move the clock back from ${shortTime(engine.now)} to ${shortTime(t)}`);
  const n = feedUntil(run, t);
  if (t > engine.now) engine.advanceTo(t);
  return { label: `advance to ${shortTime(t)} (${counted(n, 'tick')})`, failures: [] };
}

export function advanceTo(run: ScenarioRun, a: ActionOf<'advanceTo'>): StepOutcome {
  return advanceClockTo(run, a.to);
}

export function advanceBy(run: ScenarioRun, a: ActionOf<'advanceBy'>): StepOutcome {
  return advanceClockTo(run, run.engine.now + a.by);
}

export function advanceTicks(run: ScenarioRun, a: ActionOf<'advanceTicks'>): StepOutcome {
  for (let i = 0; i < a.count; i += 1) {
    const tick = run.feed.take();
    if (tick === undefined) throw new StepError(`the price source ran out after ${i} of ${a.count} ticks`);
    run.engine.pushTick(tick);
  }
  return { label: `advance ${counted(a.count, 'tick')} to ${shortTime(run.engine.now)}`, failures: [] };
}

export function advanceEnd(run: ScenarioRun): StepOutcome {
  let n = 0;
  for (let tick = run.feed.take(); tick !== undefined; tick = run.feed.take()) {
    run.engine.pushTick(tick);
    n += 1;
  }
  return { label: `advance to the end of the prices (${n} ticks, now ${shortTime(run.engine.now)})`, failures: [] };
}

/** Quotes written in the step: the price sources' earlier ticks go first. */
export function pushTicks(run: ScenarioRun, a: ActionOf<'ticks'>): StepOutcome {
  const { engine } = run;
  const shown: string[] = [];
  for (const spec of a.ticks) {
    const t = spec.time ?? engine.now;
    if (t < engine.now) throw new StepError(`a tick at ${shortTime(t)} is before the clock (${shortTime(engine.now)})`);
    feedUntil(run, t);
    engine.pushTick(tickOf(spec, t));
    shown.push(`${spec.instrument} ${spec.bid}/${spec.ask} at ${shortTime(t)}`);
  }
  return {
    label: `tick ${shown.length === 1 ? (shown[0] as string) : `${shown.length} quotes to ${shortTime(engine.now)}`}`,
    failures: [],
  };
}
