import { Code, Stack, Text } from '@mantine/core';
import { type CampaignUrlParameter, type Domain, getResource, trackerCampaignUrl } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useLookupRecords } from '../../../api/useLookup';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';

const trafficSources = getResource('traffic-sources');
const domains = getResource('domains');

/** What `element.input` of a `campaign-url` element may carry. */
export interface CampaignUrlInput {
  /** The form field holding the traffic source; 'traffic_source_external_id' when absent. */
  trafficSourceField?: string;
}

/**
 * Where the record's `/c/{id}` is served: the origin (and path) of the campaign URL the server gave the
 * record (SWITCHYARD_PUBLIC_URL), else this dashboard's.
 */
function publicBase(savedUrl: unknown, id: string): string {
  const at = typeof savedUrl === 'string' ? savedUrl.lastIndexOf(`/c/${encodeURIComponent(id)}`) : -1;
  return at > 0 ? (savedUrl as string).slice(0, at) : window.location.origin;
}

/**
 * `campaign-url`: the tracker campaign's address as copy-text, made from the record's id and the
 * parameters of the traffic source chosen in the form (it follows a change of traffic source before the
 * save), on the public origin the server gave the record. Nothing is stored: the schema drops the value
 * from the form's body.
 */
export function CampaignUrlControl(props: FormControlProps) {
  const { values, id } = useResourceFormContext();
  const { trafficSourceField = 'traffic_source_external_id', ...input } = (props.element.input ??
    {}) as CampaignUrlInput & Record<string, unknown>;
  const sources = useLookupRecords(trafficSources);
  const chosen = String(values[trafficSourceField] ?? '');
  const source = sources.find((record) => String(record[trafficSources.lookup.value]) === chosen);
  const parameters = Array.isArray(source?.parameters) ? (source.parameters as CampaignUrlParameter[]) : [];
  const url = id === undefined ? '' : trackerCampaignUrl(publicBase(props.value, String(id)), String(id), parameters);
  return (
    <Stack gap="xs">
      <CopyTextControl {...props} element={{ ...props.element, input }} value={url} />
      {id !== undefined && <DomainCampaignUrls id={String(id)} parameters={parameters} />}
    </Stack>
  );
}

/**
 * The same campaign on each active domain of the workspace: `/{id}` works on every one of them, over
 * HTTPS once the domain has a certificate. Nothing shows without domains (or the right to read them).
 */
function DomainCampaignUrls({ id, parameters }: { id: string; parameters: CampaignUrlParameter[] }) {
  const { t } = useTranslation('domains');
  const records = useLookupRecords(domains) as unknown as Domain[];
  const active = records.filter((domain) => domain.status === 'active');
  if (active.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('campaignUrls')}
      </Text>
      {active.map((domain) => {
        const scheme = domain.certificate?.status === 'valid' ? 'https' : 'http';
        const url = trackerCampaignUrl(`${scheme}://${domain.name_ascii}`, id, parameters).replace(
          `/c/${encodeURIComponent(id)}`,
          `/${encodeURIComponent(id)}`,
        );
        return (
          <Code key={domain.id} dir="ltr" style={{ overflowWrap: 'anywhere' }} data-domain={domain.name_ascii}>
            {url}
          </Code>
        );
      })}
    </Stack>
  );
}
