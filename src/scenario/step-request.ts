/** The request step: one HTTP request to the v3 API, its expected answer, and the values it captures. */
import { compare } from './compare.js';
import { show } from './matchers.js';
import type { ActionOf, RequestSpec, ResponseExpectation, Step } from './model.js';
import type { DiffEntry, Failure } from './result.js';
import { StepError, type ScenarioRun, type StepOutcome } from './run-state.js';
import { bodyText, capture, clip, counted, type Response } from './texts.js';
import { interpolate, interpolateString } from './vars.js';

/** The request as sent: variables filled in, the query appended, the token and content type set. */
function outgoing(run: ScenarioRun, r: RequestSpec): { url: string; headers: Record<string, string>; payload: string | undefined } {
  let url = String(interpolateString(r.path, run.vars));
  if (r.query !== undefined) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(interpolate(r.query, run.vars) as Record<string, unknown>)) q.append(k, String(v));
    url += `${url.includes('?') ? '&' : '?'}${q.toString()}`;
  }
  const headers = run.headersFor(
    r.token === undefined ? undefined : r.token === null ? null : String(interpolateString(r.token, run.vars)),
    r.headers,
  );
  let payload: string | undefined;
  if (r.hasBody || r.rawBody !== undefined) {
    payload = r.rawBody !== undefined ? String(interpolateString(r.rawBody, run.vars)) : JSON.stringify(interpolate(r.body, run.vars));
    headers['content-type'] ??= 'application/json';
  }
  return { url, headers, payload };
}

/** The differences of the answer from `expect` (status, the headers listed, the body), as one failure. */
function answerFailures(run: ScenarioRun, step: Step, sent: string, expect: ResponseExpectation, res: Response): Failure[] {
  const e = interpolate(expect, run.vars) as ResponseExpectation;
  const entries: DiffEntry[] = [];
  if (e.status !== undefined) entries.push(...run.diff(step, ['status'], compare(e.status, res.status)));
  if (e.headers !== undefined) {
    for (const [name, expected] of Object.entries(e.headers)) {
      entries.push(...run.diff(step, ['headers', name], compare(expected, res.headers[name.toLowerCase()])));
    }
  }
  if (e.hasBody) entries.push(...run.diff(step, ['body'], compare(e.body, res.body)));
  if (entries.length === 0) return [];
  const statusDiffers = e.status !== undefined && compare(e.status, res.status).length > 0;
  return [
    {
      message: `${sent} answered ${res.status}${statusDiffers ? `, expected ${show(e.status)}` : ''}: ${counted(entries.length, 'difference')}`,
      location: step.location,
      diff: entries,
      actual: clip(bodyText(res.body)),
    },
  ];
}

/** Sets each captured variable; a capture that finds nothing ends the scenario. */
function captureValues(run: ScenarioRun, captures: ReadonlyMap<string, string>, res: Response): void {
  for (const [name, path] of captures) {
    const value = capture(res, path);
    if (value === undefined) {
      throw new StepError(
        `capture ${name}: the response has nothing at ${path} (status ${res.status}; body: ${clip(res.text).slice(0, 500)})`,
      );
    }
    run.vars.set(name, value);
  }
}

export async function request(run: ScenarioRun, a: ActionOf<'request'>, step: Step): Promise<StepOutcome> {
  const r = a.request;
  const { url, headers, payload } = outgoing(run, r);
  const res = await run.send(r.method, url, headers, payload);
  const failures = a.expect === undefined ? [] : answerFailures(run, step, `${r.method} ${url}`, a.expect, res);
  captureValues(run, a.capture, res);
  return { label: `${r.method} ${r.path} → ${res.status}`, failures };
}
