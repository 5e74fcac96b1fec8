import { Badge } from '@mantine/core';
import type { Domain } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

const CERTIFICATE_COLORS = { none: 'gray', pending: 'blue', valid: 'teal', failed: 'red' } as const;

/** Whether the domain's name resolves to this server, as last looked up. */
export function DnsBadge({ domain }: { domain: Domain }) {
  const { t } = useTranslation('domains');
  const { points_here: here, checked_at: checked } = domain.dns;
  const [color, key] =
    checked === null || here === null
      ? ['gray', 'dns.unknown']
      : here
        ? ['teal', 'dns.pointsHere']
        : ['orange', 'dns.elsewhere'];
  return (
    <Badge color={color} variant="light" size="sm" miw="max-content">
      {t(key)}
    </Badge>
  );
}

/** none, pending, valid or failed. */
export function CertificateBadge({ domain }: { domain: Domain }) {
  const { t } = useTranslation('domains');
  const { status } = domain.certificate;
  return (
    <Badge color={CERTIFICATE_COLORS[status]} variant="light" size="sm" miw="max-content">
      {t(`certificate.${status}`)}
    </Badge>
  );
}
