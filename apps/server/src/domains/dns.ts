// What a domain's name resolves to, and whether that is this server: no certificate is ordered for a name
// that points elsewhere, since the CA's HTTP-01 request would reach another machine.
import { Resolver } from 'node:dns/promises';
import type { DomainSettings } from '../config.js';

export interface DnsLook {
  addresses: string[];
  error: string | null;
  checkedAt: string;
}

const LOOKUP_TIMEOUT_MS = 5_000;

export class DomainDns {
  private readonly resolver: Resolver;

  constructor(private readonly settings: Pick<DomainSettings, 'dnsServers' | 'publicIp'>) {
    this.resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
    if (settings.dnsServers) this.resolver.setServers(settings.dnsServers);
  }

  /** The A and AAAA records of `asciiName`; a name with neither says why. */
  async look(asciiName: string): Promise<DnsLook> {
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(asciiName), this.resolver.resolve6(asciiName)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    let error: string | null = null;
    if (addresses.length === 0) {
      const reason = v4.status === 'rejected' ? (v4.reason as NodeJS.ErrnoException) : null;
      error =
        reason?.code === 'ENOTFOUND' || reason?.code === 'ENODATA' || !reason
          ? 'No A or AAAA record'
          : `DNS lookup failed (${reason.code ?? reason.message})`;
    }
    return { addresses, error, checkedAt: new Date().toISOString() };
  }

  /** Whether the addresses include SWITCHYARD_PUBLIC_IP; null when it is not set (nothing to compare). */
  pointsHere(addresses: readonly string[]): boolean | null {
    const own = this.settings.publicIp;
    if (own === undefined) return null;
    return addresses.includes(own);
  }

  get publicIp(): string | null {
    return this.settings.publicIp ?? null;
  }
}
