import { lookup } from 'node:dns/promises';
import type { WebhookClient } from '../../application/ports/webhookClient.js';
import { isPrivateAddress, isPrivateHost } from '../../application/webhooks/privateNetworks.js';

/**
 * Calls subscribers with fetch: a timeout on every call, no redirects followed (a redirect is
 * an answer, not a delivery), and, unless allowed, no calls to hosts that resolve to loopback
 * or private addresses.
 */
export class HttpWebhookClient implements WebhookClient {
  constructor(private readonly allowPrivateNetworks: boolean) {}

  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
    if (!this.allowPrivateNetworks) await this.refusePrivate(new URL(url).hostname);
    const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const name = (error as Error).name;
      throw new Error(name === 'TimeoutError' ? `No answer within ${timeoutMs} ms` : `Request failed${cause ? ` (${cause})` : ''}: ${(error as Error).message}`);
    });
    await response.body?.cancel();
    return response.status;
  }

  private async refusePrivate(hostname: string): Promise<void> {
    if (isPrivateHost(hostname)) throw new Error(`Refused: ${hostname} is a private-network address`);
    const addresses = await lookup(hostname.replace(/^\[|\]$/g, ''), { all: true });
    if (addresses.some((a) => isPrivateAddress(a.address))) throw new Error(`Refused: ${hostname} resolves to a private-network address`);
  }
}
