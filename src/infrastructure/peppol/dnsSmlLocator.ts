import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { NaptrAnswer, SmlAnswer, SmlLocator } from '../../application/ports/peppolNetwork.js';

/**
 * The SMP URL of a U-NAPTR record (RFC 4848): the regexp is `<d>^.*$<d><uri><d>` with any
 * delimiter; the URI is the replacement. Only http(s) URLs are used.
 */
export function smpUrlFromRegexp(regexp: string): string | null {
  if (regexp.length < 3) return null;
  const delimiter = regexp[0]!;
  const parts = regexp.split(delimiter);
  // ['', '^.*$', 'http://smp.example', ''] for '!^.*$!http://smp.example!'
  if (parts.length !== 4 || parts[0] !== '' || parts[3] !== '') return null;
  const url = parts[2]!.trim();
  return /^https?:\/\/[^\s]+$/i.test(url) ? url.replace(/\/+$/, '') : null;
}

const NOT_REGISTERED = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Resolves the SML's U-NAPTR records with node:dns, against the system's DNS servers or the
 * one configured (SML_DNS_SERVER, host:port: the tests run a DNS server on a loopback port).
 */
export class DnsSmlLocator implements SmlLocator {
  private readonly resolver: Resolver;

  constructor(
    readonly zone: string,
    server: string | null,
    timeoutMs: number,
    /** SML_CNAME_FALLBACK: when a participant has no U-NAPTR record, its CNAME-form name is tried. */
    private readonly cnameFallback = false,
  ) {
    this.resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
    if (server) this.resolver.setServers([server]);
  }

  async locate(dnsName: string, cnameName?: string): Promise<SmlAnswer> {
    const answer = await this.locateNaptr(dnsName);
    if (answer.kind === 'found' || !this.cnameFallback || !cnameName) return answer;
    const cname = await this.locateCname(cnameName);
    return cname.kind === 'found' ? cname : { kind: 'not_found', reason: `${answer.reason}; ${cname.reason}` };
  }

  /** The CNAME form (SML before U-NAPTR): the name is an alias of the SMP's host, served over plain HTTP. */
  private async locateCname(name: string): Promise<SmlAnswer> {
    let targets: string[];
    try {
      targets = await this.resolver.resolveCname(name);
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (NOT_REGISTERED.has(code)) return { kind: 'not_found', reason: `no CNAME record for ${name} (${code})` };
      throw new Error(`DNS query for ${name} failed: ${code || (error as Error).message}`);
    }
    const target = targets[0]?.replace(/\.$/, '');
    if (!target) return { kind: 'not_found', reason: `no CNAME record for ${name}` };
    return { kind: 'found', smpUrl: `http://${target}`, records: [] };
  }

  private async locateNaptr(dnsName: string): Promise<SmlAnswer> {
    let records: NaptrAnswer[];
    try {
      records = await this.resolver.resolveNaptr(dnsName);
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (NOT_REGISTERED.has(code)) return { kind: 'not_found', reason: `no NAPTR record for ${dnsName} (${code})` };
      throw new Error(`DNS query for ${dnsName} failed: ${code || (error as Error).message}`);
    }
    const usable = records
      .filter((record) => record.flags.toUpperCase() === 'U' && record.service.toLowerCase() === 'meta:smp')
      .sort((a, b) => a.order - b.order || a.preference - b.preference);
    for (const record of usable) {
      const smpUrl = smpUrlFromRegexp(record.regexp);
      if (smpUrl) return { kind: 'found', smpUrl, records };
    }
    return { kind: 'not_found', reason: `${dnsName} has no U-NAPTR record for service Meta:SMP with an http(s) URL` };
  }

  async addresses(host: string): Promise<string[]> {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) return [bare];
    const settled = await Promise.allSettled([this.resolver.resolve4(bare), this.resolver.resolve6(bare)]);
    return settled.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
  }
}
