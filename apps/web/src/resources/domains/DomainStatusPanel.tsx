import { Alert, Button, Code, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { type Domain, getResource } from '@switchyard/domain';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useResourceRecord } from '../../api/useResourceRecord';
import { formatDateTime } from '../../components/list/formatDateTime';
import { errorText } from '../../shared/errors/errorText';
import { CertificateBadge, DnsBadge } from './DomainBadges';
import { useCheckDns, useRenewCertificate, useUploadCertificate } from './useDomainActions';

const domains = getResource('domains');
/** While a certificate is being ordered, the domain is read again this often. */
const PENDING_REFRESH_MS = 5_000;

function DnsSection({ domain }: { domain: Domain }) {
  const { t } = useTranslation(['domains', 'common']);
  const check = useCheckDns();
  const { dns } = domain;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Title order={2} size="h5">
          {t('dns.title')}
        </Title>
        <DnsBadge domain={domain} />
      </Group>
      <Text size="sm">
        {dns.addresses.length > 0
          ? t('dns.resolvesTo', { addresses: dns.addresses.join(', ') })
          : (dns.error ?? t('dns.nothing'))}
      </Text>
      {dns.points_here !== true && (
        <Text size="sm" c="dimmed">
          {dns.public_ip ? t('dns.expected', { ip: dns.public_ip }) : t('dns.noPublicIp')}
        </Text>
      )}
      {dns.checked_at && (
        <Text size="xs" c="dimmed">
          {t('dns.checked', { when: formatDateTime(dns.checked_at) })}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          loading={check.isPending}
          onClick={() => check.mutate({ id: domain.id, input: undefined })}
        >
          {t('dns.check')}
        </Button>
      </Group>
      {check.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorText(t, check.error)}
        </Alert>
      )}
    </Stack>
  );
}

function CertificateSection({ domain }: { domain: Domain }) {
  const { t } = useTranslation(['domains', 'common']);
  const renew = useRenewCertificate();
  const { certificate } = domain;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Title order={2} size="h5">
          {t('certificate.title')}
        </Title>
        <CertificateBadge domain={domain} />
      </Group>
      {certificate.source && (
        <Text size="sm">{t(certificate.source === 'upload' ? 'certificate.uploaded' : 'certificate.acme')}</Text>
      )}
      {certificate.expires_at && (
        <Text size="sm">{t('certificate.expires', { when: formatDateTime(certificate.expires_at) })}</Text>
      )}
      {certificate.issuer && <Text size="sm">{t('certificate.issuer', { issuer: certificate.issuer })}</Text>}
      {certificate.reason && (
        <Alert color="red" variant="light">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('certificate.reason', { reason: certificate.reason })}
          </Text>
          {certificate.retry_at && (
            <Text size="xs">{t('certificate.retry', { when: formatDateTime(certificate.retry_at) })}</Text>
          )}
        </Alert>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          loading={renew.isPending}
          onClick={() => renew.mutate({ id: domain.id, input: undefined })}
        >
          {t('certificate.renew')}
        </Button>
      </Group>
      {renew.isSuccess && <Text size="sm">{t('certificate.renewing')}</Text>}
      {renew.isError && (
        <Alert color="red" variant="light" role="alert">
          {renew.error instanceof ApiError && renew.error.body.errors?.certificate?.[0]
            ? renew.error.body.errors.certificate[0]
            : errorText(t, renew.error)}
        </Alert>
      )}
    </Stack>
  );
}

function UploadSection({ domain }: { domain: Domain }) {
  const { t } = useTranslation(['domains', 'common']);
  const upload = useUploadCertificate();
  const [certificate, setCertificate] = useState('');
  const [key, setKey] = useState('');
  const fieldErrors = upload.error instanceof ApiError ? upload.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate(
      { id: domain.id, input: { certificate, key } },
      {
        onSuccess: () => {
          setCertificate('');
          setKey('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('upload.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('upload.hint')}
        </Text>
        <Textarea
          label={t('upload.certificate')}
          value={certificate}
          onChange={(event) => setCertificate(event.currentTarget.value)}
          error={fieldErrors.certificate}
          rows={4}
          dir="ltr"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          required
        />
        <Textarea
          label={t('upload.key')}
          value={key}
          onChange={(event) => setKey(event.currentTarget.value)}
          error={fieldErrors.key}
          rows={4}
          dir="ltr"
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          required
        />
        <Group>
          <Button type="submit" size="xs" loading={upload.isPending}>
            {t('upload.submit')}
          </Button>
        </Group>
        {upload.isSuccess && <Text size="sm">{t('upload.done')}</Text>}
        {upload.isError && Object.keys(fieldErrors).length === 0 && (
          <Alert color="red" variant="light" role="alert">
            {errorText(t, upload.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

/**
 * A saved domain's DNS and certificate, with the CA's reason when an order failed, the renew and DNS
 * buttons, and the upload of an operator's own certificate. Read again every few seconds while an order runs.
 */
export function DomainStatusPanel({ id }: { id: string | undefined }) {
  const record = useResourceRecord<Domain>(domains, id);
  const domain = record.data;
  const pending = domain?.certificate.status === 'pending';
  const { refetch } = record;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => void refetch(), PENDING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [pending, refetch]);
  if (!domain) return null;
  return (
    <Paper withBorder p="lg" radius="md" maw={760}>
      <Stack gap="lg">
        <Code block dir="ltr">
          {domain.name === domain.name_ascii ? domain.name : `${domain.name} (${domain.name_ascii})`}
        </Code>
        <DnsSection domain={domain} />
        <CertificateSection domain={domain} />
        <UploadSection domain={domain} />
      </Stack>
    </Paper>
  );
}
