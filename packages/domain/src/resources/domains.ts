// A domain the tracker answers on: its own HTTPS certificate, its index campaign, what unknown paths do,
// and whether the dashboard is served there.
import { z } from 'zod';
import { ZRecordStatusAnswer, ZStoredId, ZTimestamp } from '../api-answers/common.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

export const DOMAIN_NAME_MESSAGE = 'Enter a host name such as track.example.com, without http:// or a path.';
export const DOMAIN_WILDCARD_MESSAGE = 'Wildcard names are not supported: add each host name.';
const CAMPAIGN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ASCII_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The punycode form of a host name typed by a person (`Bücher.example.` → `xn--bcher-kva.example`), or
 * null when it is not a public host name (a URL, a path, a port, an address, a wildcard, one label).
 * WHATWG URL does the IDNA mapping, the same in the browser and in Node.
 */
export function asciiDomainName(input: string): string | null {
  const typed = input.trim().replace(/\.$/, '');
  if (typed === '' || typed.length > 253 || /[\s/:@?#\\%*[\]]/.test(typed)) return null;
  let host: string;
  try {
    host = new URL(`http://${typed}/`).hostname;
  } catch {
    return null;
  }
  if (host.length > 253) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => ASCII_LABEL.test(label))) return null;
  // A dotted quad is an address, not a name a certificate can be issued for.
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) return null;
  return host;
}

export const ZDomainName = z
  .string({ error: M.required })
  .trim()
  .min(1, { error: M.required })
  .max(253, { error: M.tooLong })
  .superRefine((value, context) => {
    if (value === '') return;
    if (value.includes('*')) context.addIssue({ code: 'custom', message: DOMAIN_WILDCARD_MESSAGE });
    else if (asciiDomainName(value) === null) context.addIssue({ code: 'custom', message: DOMAIN_NAME_MESSAGE });
  });

const ZCampaignRef = z.string().trim().regex(CAMPAIGN_ID, { error: M.required });

export const ZDomainForm = z.object({
  name: ZDomainName,
  /** The tracker campaign a visit to `/` is a click on; null: `/` is an unknown path. */
  index_campaign: ZCampaignRef.nullable().default(null),
  /** Unknown paths: `404`, or a click on this tracker campaign. */
  not_found: z.union([z.literal('404'), ZCampaignRef]).default('404'),
  /** HTTP requests are sent on to HTTPS (ACME challenges excepted). */
  https_only: z.boolean().default(false),
  /** Whether the dashboard and /api answer on this host; off, they answer 404 and no cookie is set. */
  dashboard: z.boolean().default(false),
  /** `X-Robots-Tag: noindex` on every answer, and a robots.txt that disallows everything. */
  noindex: z.boolean().default(true),
});
export type TDomainForm = z.infer<typeof ZDomainForm>;

export const CERTIFICATE_STATUSES = ['none', 'pending', 'valid', 'failed'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** What the name resolves to, looked up when saved and before each certificate order. */
export const ZDomainDns = z.object({
  addresses: z.array(z.string()),
  /** Whether an address is SWITCHYARD_PUBLIC_IP; null when that is not set. */
  points_here: z.boolean().nullable(),
  public_ip: z.string().nullable(),
  /** Why the lookup failed (NXDOMAIN, timeout), or null. */
  error: z.string().nullable(),
  checked_at: ZTimestamp.nullable(),
});

export const ZDomainCertificate = z.object({
  status: z.enum(CERTIFICATE_STATUSES),
  /** `acme`: ordered by the tracker; `upload`: the operator's own. */
  source: z.enum(['acme', 'upload']).nullable(),
  expires_at: ZTimestamp.nullable(),
  issuer: z.string().nullable(),
  /** The CA's reason for the last failure (or the rate limit), kept until a certificate is issued. */
  reason: z.string().nullable(),
  /** When the next attempt is due after a failure or a rate limit. */
  retry_at: ZTimestamp.nullable(),
});

export const ZDomainAnswer = z.object({
  id: ZStoredId,
  /** Shown in Unicode; `name_ascii` is its punycode form, as stored and as DNS knows it. */
  name: z.string(),
  name_ascii: z.string(),
  workspace: ZStoredId,
  index_campaign: z.string().nullable(),
  not_found: z.string(),
  https_only: z.boolean(),
  dashboard: z.boolean(),
  noindex: z.boolean(),
  dns: ZDomainDns,
  certificate: ZDomainCertificate,
  status: ZRecordStatusAnswer,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});
export type Domain = z.infer<typeof ZDomainAnswer>;

/** An operator's own certificate: PEM, the chain after the leaf, and its unencrypted key. */
export const ZCertificateUpload = z.object({
  certificate: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(64_000, { error: M.tooLong }),
  key: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(16_000, { error: M.tooLong }),
});
export type TCertificateUpload = z.infer<typeof ZCertificateUpload>;

export const domains = defineResource({
  name: 'domains',
  apiPath: 'domains',
  route: '/admin/domains',
  idField: 'id',
  permission: { section: 'general', resource: 'domain' },
  archivable: true,
  menuSection: 'general',
  lookup: { value: 'id', label: 'name' },
  form: ZDomainForm,
});
