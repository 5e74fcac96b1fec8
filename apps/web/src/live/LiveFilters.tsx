import { Chip, Group, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LIVE_KINDS, type LiveKind } from './liveEvent';
import { useLiveNames } from './useLiveNames';
import type { LiveParams } from './useLiveParams';

/** The campaign the server streams (a new stream on each change) and the kinds shown of it. */
export function LiveFilters({
  params,
  onChange,
}: {
  params: LiveParams;
  onChange: (next: Partial<LiveParams>) => void;
}) {
  const { t } = useTranslation('events');
  const { campaignGroups, campaign } = useLiveNames();
  const data = campaignGroups.map((group) => ({ group: t(`live.filters.${group.kind}`), items: group.options }));
  // A campaign from the URL that the lookups do not list still shows, by its id.
  const listed = campaignGroups.some((group) => group.options.some((option) => option.value === params.campaign));
  if (params.campaign && !listed)
    data.push({ group: '', items: [{ value: params.campaign, label: campaign(params.campaign) }] });

  return (
    <Group align="flex-end" gap="md" wrap="wrap">
      <Select
        label={t('live.filters.campaign')}
        placeholder={t('live.filters.allCampaigns')}
        data={data}
        value={params.campaign}
        onChange={(value) => onChange({ campaign: value })}
        searchable
        clearable
        nothingFoundMessage={t('live.filters.noCampaigns')}
        w={{ base: '100%', xs: 280 }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="live-kinds-label">
          {t('live.filters.kinds')}
        </Text>
        <Chip.Group
          multiple
          value={params.kinds}
          onChange={(value) => onChange({ kinds: value.length > 0 ? (value as LiveKind[]) : [...LIVE_KINDS] })}
        >
          <Group gap="xs" role="group" aria-labelledby="live-kinds-label">
            {LIVE_KINDS.map((kind) => (
              <Chip key={kind} value={kind} size="sm">
                {t(`live.kinds.${kind}`)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Stack>
    </Group>
  );
}
