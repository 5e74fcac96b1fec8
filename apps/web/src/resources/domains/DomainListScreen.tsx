import { Group, Text } from '@mantine/core';
import { type Domain, getResource } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../components/list/formatDateTime';
import { ResourceList } from '../../components/list/ResourceList';
import type { ListColumn } from '../../components/list/types';
import { StatusBadge } from '../screens/StatusBadge';
import { CertificateBadge, DnsBadge } from './DomainBadges';

const domains = getResource('domains');

function CertificateCell({ domain }: { domain: Domain }) {
  const { t } = useTranslation('domains');
  const { certificate } = domain;
  return (
    // Wide enough that the CA's reason reads as sentences when the table scrolls on a phone.
    <Group gap={6} wrap="wrap" miw={240}>
      <CertificateBadge domain={domain} />
      {certificate.expires_at && (
        <Text size="xs" c="dimmed">
          {t('certificate.expires', { when: formatDateTime(certificate.expires_at) })}
        </Text>
      )}
      {certificate.reason && (
        <Text size="xs" c="red.8" dir="auto" style={{ overflowWrap: 'anywhere' }}>
          {certificate.reason}
        </Text>
      )}
    </Group>
  );
}

const COLUMNS: ListColumn<Domain>[] = [
  {
    accessor: 'name',
    label: 'resources:domains.fields.name',
    link: true,
    render: (domain) => <bdi dir="ltr">{domain.name}</bdi>,
  },
  { accessor: 'dns', label: 'resources:domains.fields.dns', render: (domain) => <DnsBadge domain={domain} /> },
  {
    accessor: 'certificate',
    label: 'resources:domains.fields.certificate',
    render: (domain) => <CertificateCell domain={domain} />,
  },
  { accessor: 'status', label: 'resources:fields.status', render: (domain) => <StatusBadge status={domain.status} /> },
];

/** /admin/domains: each domain with where its DNS points and its certificate, with the CA's reason. */
export function DomainListScreen() {
  return <ResourceList definition={domains} columns={COLUMNS} />;
}
