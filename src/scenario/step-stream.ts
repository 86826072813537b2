/** The transaction stream steps: openStream, expectStream (the lines since the last look) and closeStream. */
import { compare } from './compare.js';
import type { ActionOf, Step } from './model.js';
import type { Failure } from './result.js';
import { StepError, type ScenarioRun, type StepOutcome } from './run-state.js';
import { openEngineStream, openHttpStream, parseStreamLines, STREAM_WAIT_MS } from './stream.js';
import { counted, transactionsText } from './texts.js';
import { interpolate, interpolateString } from './vars.js';

export async function openStream(run: ScenarioRun, a: ActionOf<'openStream'>): Promise<StepOutcome> {
  const { id } = run.account(a.account);
  const headers = run.headersFor(a.token === undefined ? undefined : String(interpolateString(a.token, run.vars)), a.headers);
  const format = headers['accept-datetime-format'] === 'UNIX' ? 'UNIX' : 'RFC3339';
  if (a.via === 'engine') {
    run.streams.set(a.name, openEngineStream(run.engine, a.name, id, format));
    return { label: `open stream ${a.name} (engine) on ${id}`, failures: [] };
  }
  const port = await run.listen();
  const result = await openHttpStream(run.engine, port, a.name, id, `/v3/accounts/${id}/transactions/stream`, headers, format);
  if (!result.ok) {
    throw new StepError(`the transaction stream answered ${result.status}: ${result.body}`);
  }
  run.streams.set(a.name, result.stream);
  return { label: `open stream ${a.name} on ${id}`, failures: [] };
}

/** Waits for the lines of the transactions the engine has published, then compares the new lines. */
export async function expectStream(run: ScenarioRun, a: ActionOf<'expectStream'>, step: Step): Promise<StepOutcome> {
  const stream = run.streams.get(a.name);
  if (stream === undefined) throw new StepError(`stream ${a.name} is not open`);
  const due = stream.published.length;
  const arrived = await stream.waitFor(due);
  const failures: Failure[] = [];
  const fresh = stream.lines.slice(stream.cursor);
  const start = stream.cursor;
  stream.cursor = stream.lines.length;
  const expected = interpolate(a.items, run.vars) as unknown[];
  const label = `expect ${counted(expected.length, 'stream line')} on ${a.name}`;
  if (!arrived) {
    failures.push({
      message: `stream ${a.name} delivered ${stream.lines.length} of the ${due} transactions the engine published within ${STREAM_WAIT_MS} ms`,
      location: step.location,
    });
  }
  const parsed = parseStreamLines(stream, fresh, start, (message, actual) => {
    failures.push(actual === undefined ? { message, location: step.location } : { message, location: step.location, actual });
  });
  const mismatches = compare(expected, parsed);
  if (mismatches.length > 0) {
    failures.push({
      message: `stream ${a.name} received different lines (${parsed.length} received, ${expected.length} expected)`,
      location: step.location,
      diff: run.diff(step, [], mismatches),
      actual: transactionsText(parsed),
    });
  }
  return { label, failures };
}

export function closeStream(run: ScenarioRun, a: ActionOf<'closeStream'>): StepOutcome {
  run.streams.get(a.name)?.close();
  run.streams.delete(a.name);
  return { label: `close stream ${a.name}`, failures: [] };
}
