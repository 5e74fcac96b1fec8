// Domains the tracker answers on (workspace-owned), their certificates, and the ACME challenges being
// answered. Certificates and challenge tokens live in the database so every node serves every domain
// and answers any challenge, whichever node ordered it.
import type { Generated } from 'kysely';

export interface DomainTable {
  id: Generated<number>;
  workspace_id: number;
  /** Punycode, lower case: what DNS, SNI and the Host header carry. */
  name: string;
  index_campaign: string | null;
  not_found: string;
  https_only: number;
  dashboard: number;
  noindex: number;
  status: string;
  created_at: string;
  updated_at: string;
  /** JSON array of the addresses the name resolved to at the last look. */
  dns_addresses: string;
  dns_error: string | null;
  dns_checked_at: string | null;
  cert_status: Generated<string>;
  cert_source: string | null;
  cert_pem: string | null;
  /** The certificate's private key (PEM); never answered by the API. */
  cert_key: string | null;
  cert_expires_at: string | null;
  cert_issuer: string | null;
  cert_reason: string | null;
  cert_retry_at: string | null;
  /** Failures in a row, for the backoff. */
  cert_failures: Generated<number>;
  /** A node ordering a certificate holds the domain until then, so two nodes never order at once. */
  cert_lock_until: string | null;
  cert_updated_at: string | null;
}

export interface AcmeChallengeTable {
  token: string;
  key_authorization: string;
  created_at: string;
}
