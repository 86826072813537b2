import type { InjectOptions } from 'fastify';
import type { App } from '../api/index.js';
import { probeStream } from './stream.js';
import type { Response } from './texts.js';

/** A request step's answer: JSON bodies parsed, anything else kept as text. */

function parsed(text: string | undefined): unknown {
  try {
    if (text !== undefined && text !== '') return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: compared as text.
  }
  return text;
}

/** A stream path over loopback: the status and headers, and the body of an error (a 200 is cut off). */
export async function probeStreamResponse(port: number, method: string, url: string, headers: Record<string, string>): Promise<Response> {
  const r = await probeStream(port, method, url, headers);
  return { status: r.status, headers: r.headers, body: parsed(r.body), text: r.body ?? '(stream opened; cut off after the headers)' };
}

/** Any other path, through Fastify's inject. */
export async function injectResponse(
  app: App,
  method: string,
  url: string,
  headers: Record<string, string>,
  payload: string | undefined,
): Promise<Response> {
  const options: InjectOptions = { method: method as NonNullable<InjectOptions['method']>, url, headers };
  if (payload !== undefined) options.payload = payload;
  const res = await app.inject(options);
  return { status: res.statusCode, headers: res.headers as Record<string, unknown>, body: parsed(res.payload), text: res.payload };
}
