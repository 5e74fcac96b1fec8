import { createHash } from 'node:crypto';
import { DEFAULT_EMAIL_WEIGHTS, EMAIL_PROVIDER_DOMAINS } from '@switchyard/domain';

const PROVIDER_BY_DOMAIN = new Map(
  Object.entries(EMAIL_PROVIDER_DOMAINS).flatMap(([key, domains]) => domains.map((domain) => [domain, key] as const)),
);
const DEFAULT_WEIGHT_BY_KEY = new Map(DEFAULT_EMAIL_WEIGHTS.map((entry) => [entry.key, entry.weight]));

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The email-weight key (§3.7) of an address: its provider, or `other`. */
export function emailProvider(email: string): string {
  return PROVIDER_BY_DOMAIN.get(emailDomain(email)) ?? 'other';
}

/**
 * §3.9 `emailRate`: the weight of the lead's email provider among the default email weights (§3.7);
 * an offer's own weights, when it has them, are read when that offer is the one being rated.
 */
export function emailRate(email: string, weights: Readonly<Record<string, number>> = {}): number {
  const key = emailProvider(email);
  return weights[key] ?? DEFAULT_WEIGHT_BY_KEY.get(key) ?? 0;
}

/** How a lead's email is stored: SHA-256 of the lowercased address, hex. */
export function emailHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}
