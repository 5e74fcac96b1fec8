import { describe, expect, it } from 'vitest';
import { rateLimitRetry, retryDelayMs } from '../src/domains/acme.js';

// When a failed certificate order is tried again: with backoff, or at the time a rate limit names.

describe('certificate order retries', () => {
  it('backs off from 5 minutes, doubling, to at most a day', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([300_000, 600_000, 1_200_000, 2_400_000]);
    expect(retryDelayMs(20)).toBe(24 * 3600 * 1000);
  });

  it("reads Let's Encrypt's retry time out of a rate limit's detail", () => {
    const detail =
      'too many certificates (5) already issued for this exact set of domains in the last 168h0m0s, retry after 2026-12-01 17:13:02 UTC: see https://letsencrypt.org/docs/rate-limits/';
    expect(rateLimitRetry(detail, null)?.toISOString()).toBe('2026-12-01T17:13:02.000Z');
  });

  it('falls back on the Retry-After of a 429, and is null for other failures', () => {
    const header = new Date('2026-12-02T00:00:00Z');
    expect(rateLimitRetry('Service busy; rateLimited', header)).toBe(header);
    expect(rateLimitRetry('Invalid response from http://a.example/.well-known/acme-challenge/x: 404', null)).toBeNull();
  });
});
