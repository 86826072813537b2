import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { IncomingMessage, Server } from 'node:http';
import { V20Error } from '../../v3/errors.js';
import type { RequestStep } from './request-state.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Host once it passed the check (a name of this server), else null: the only Host URLs may echo. */
    v20Host: string | null;
  }
}

/**
 * Which Host headers a server answers. A page on evil.example whose name is made to resolve to
 * 127.0.0.1 (DNS rebinding) reaches a loopback server with `Host: evil.example`; answering only the
 * server's own names stops it, and keeps a forged Host out of Location and Link URLs. The port is
 * not compared: rebinding changes the name only, and a proxy may forward any port.
 */
export interface HostRules {
  /** Extra names (e.g. the name a proxy forwards), or '*' to answer any Host. */
  readonly allowedHosts?: readonly string[] | '*' | undefined;
  /** The configured base URL: its host is one of the server's names. */
  readonly baseUrl?: string | undefined;
}

/** RFC 9110 section 7.2: uri-host [ ":" port ]; a bracketed IPv6 literal or a registered name. */
const HOST_RE = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,252}))(?::(\d{1,5}))?$/;

/** The name part of a Host value, lower case and without brackets; null when the value is not a host. */
export function hostName(value: string): string | null {
  const m = HOST_RE.exec(value);
  if (m === null) return null;
  const name = (m[1] as string).toLowerCase();
  return name.startsWith('[') ? name.slice(1, -1) : name;
}

/** localhost, *.localhost (RFC 6761 section 6.3), 127.0.0.0/8 and ::1 all name this machine's loopback. */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

/** The names of the address a server listens on: every interface's address when it listens on all of them. */
function listenNames(server: Server): string[] {
  const address = server.address();
  if (address === null || typeof address === 'string') return [];
  if (address.address !== '0.0.0.0' && address.address !== '::') return [address.address.toLowerCase()];
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.toLowerCase()));
}

/** The fixed names of the rules: the configured extra names and the base URL's host. */
function configuredNames(rules: HostRules): Set<string> {
  const names = new Set<string>();
  if (rules.allowedHosts !== undefined && rules.allowedHosts !== '*')
    for (const h of rules.allowedHosts) names.add(hostName(h) ?? h.toLowerCase());
  if (rules.baseUrl !== undefined) {
    try {
      names.add(hostName(new URL(rules.baseUrl).host) ?? '');
    } catch {
      // An unreadable base URL names no host; the CLI checks it before.
    }
  }
  return names;
}

const BAD_HOST = (): V20Error => new V20Error(400, { errorMessage: "Invalid value specified for 'Host'" });
/**
 * RFC 9110 section 15.5.20: 421 Misdirected Request, "the request was directed at a server that
 * is unable or unwilling to produce an authoritative response for the target URI". v20 documents
 * no answer for a foreign Host; its error body shape is kept.
 */
const MISDIRECTED = (name: string): V20Error =>
  new V20Error(421, { errorMessage: `The Host '${name}' is not a name of this server; configure it in allowedHosts` });

/** Host values a check accepted, kept so a keep-alive client's repeated Host costs one lookup; bounded, as clients choose them. */
const ACCEPTED_MAX = 256;

/**
 * Refuses requests whose Host is not a name of this server (400 for a Host that is no host at all
 * or missing from an HTTP/1.1 request, as RFC 9112 section 3.2 asks; 421 for a foreign one), and
 * records the checked Host for URLs. An HTTP/1.0 request without Host is answered; its URLs use
 * the connection's local address.
 */
export function hostCheck(rules: HostRules, server: Server): RequestStep {
  const fixed = configuredNames(rules);
  const anyHost = rules.allowedHosts === '*';
  let listening: Set<string> = new Set();
  const accepted = new Set<string>();
  server.on('listening', () => {
    listening = new Set(listenNames(server));
    accepted.clear();
  });
  return (request, reply) => {
    const host = request.headers.host;
    if (host !== undefined && accepted.has(host)) {
      request.v20Host = host;
      return false;
    }
    if (host === undefined && request.raw.httpVersion !== '1.1') return false;
    const name = host === undefined ? null : hostName(host);
    if (host === undefined || name === null) {
      const e = BAD_HOST();
      void reply.code(e.statusCode).send(e.body);
      return true;
    }
    if (isLoopbackName(name) || fixed.has(name) || listening.has(name)) {
      request.v20Host = host;
      if (accepted.size >= ACCEPTED_MAX) accepted.clear();
      accepted.add(host);
    } else if (!anyHost) {
      const e = MISDIRECTED(name);
      void reply.code(e.statusCode).send(e.body);
      return true;
    }
    return false;
  };
}

const ABSOLUTE_FORM_RE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/;

/**
 * The path of a request line, also for the absolute form (`GET http://host:port/v3/accounts`,
 * RFC 9112 section 3.2.2), which every HTTP/1.1 server must accept. Its authority replaces the
 * Host header, as that section requires, so the Host check sees it. Fastify's `rewriteUrl`.
 */
export function originFormUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url.startsWith('/')) return url;
  const m = ABSOLUTE_FORM_RE.exec(url);
  if (m === null) return url;
  const authority = (m[1] as string).replace(/^[^@]*@/, '');
  if (authority !== '') req.headers.host = authority;
  const rest = m[2] as string;
  return rest.startsWith('/') ? rest : `/${rest}`;
}
