import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import type { WebhookClient } from '../../application/ports/webhookClient.js';
import { isPrivateAddress, isPrivateHost } from '../../application/webhooks/privateNetworks.js';
import { WEBHOOKS_ALLOW_PRIVATE_NETWORKS } from '../../application/webhooks/webhookCommands.js';
import { inject, injectable } from '../../application/injection.js';

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** `ResolveHost | undefined`: how host names are resolved; unset, the system resolver (tests give their own answers). */
export const RESOLVE_HOST = Symbol('ResolveHost');

/** The system resolver, as Node's own connections use it (getaddrinfo: hosts file, then DNS). */
const systemResolver: ResolveHost = (hostname) => lookup(hostname, { all: true });

/** A call refused for where it would go; its message is what the delivery history shows. */
class RefusedTarget extends Error {}

/**
 * Calls subscribers over node:http(s), with a timeout on every call and, unless the deployment
 * allows it, never to loopback, private, link-local or other internal addresses (SSRF).
 *
 * The address check is made when the connection is made: the connection's `lookup` resolves the
 * name once, refuses the call when any of its addresses is internal, and the socket connects to
 * exactly the addresses that were checked. A check made on a resolution of its own ahead of the
 * call would let DNS rebinding through (a public answer for the check, a private one a moment
 * later for the connection). Literal addresses are not looked up, so they are checked before
 * connecting. Connections are pooled by agents of this client's own, so a call never reuses a
 * connection that other code opened without the check.
 *
 * Redirects are not followed: a redirect is an answer (recorded as a failed call and retried), not
 * a delivery. Following it would send the signed notification to a URL the subscriber never
 * registered, and a redirect to an internal address is the classic way around an SSRF check.
 */
@injectable()
export class HttpWebhookClient implements WebhookClient {
  private readonly agents: Readonly<Record<string, http.Agent>> = {
    'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
    'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
  };

  constructor(
    @inject(WEBHOOKS_ALLOW_PRIVATE_NETWORKS) private readonly allowPrivateNetworks: boolean,
    @inject(RESOLVE_HOST) private readonly resolveHost: ResolveHost = systemResolver,
  ) {}

  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
    const target = new URL(url);
    const agent = this.agents[target.protocol];
    if (!agent) throw new Error(`Refused: ${target.protocol} is not HTTP`);
    if (!this.allowPrivateNetworks && isPrivateHost(target.hostname))
      throw new RefusedTarget(`Refused: ${target.hostname} is a private-network address`);
    const signal = AbortSignal.timeout(timeoutMs);
    const request = target.protocol === 'https:' ? https.request : http.request;
    return new Promise<number>((resolve, reject) => {
      const call = request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent,
          lookup: this.lookup,
          signal,
        },
        (response) => {
          response.resume(); // only the status counts; the body is read and dropped
          resolve(response.statusCode ?? 0);
        },
      );
      call.on('error', (error) => reject(describe(error, signal, timeoutMs)));
      call.end(body);
    });
  }

  /** The connection's lookup: the addresses it answers are the ones checked and connected to. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.checkedAddresses(hostname, options.family).then(
      (addresses) =>
        options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family),
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  private async checkedAddresses(hostname: string, family: number | string | undefined): Promise<LookupAddress[]> {
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : null;
    const addresses = (await this.resolveHost(hostname)).filter((a) => wanted === null || a.family === wanted);
    if (addresses.length === 0)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    const internal = this.allowPrivateNetworks ? undefined : addresses.find((a) => isPrivateAddress(a.address));
    if (internal)
      throw new RefusedTarget(`Refused: ${hostname} resolves to a private-network address (${internal.address})`);
    return addresses;
  }
}

function describe(error: Error, signal: AbortSignal, timeoutMs: number): Error {
  if (error instanceof RefusedTarget) return error;
  if (signal.aborted) return new Error(`No answer within ${timeoutMs} ms`);
  const code = (error as NodeJS.ErrnoException).code;
  return new Error(`Request failed${code ? ` (${code})` : ''}: ${error.message}`);
}
