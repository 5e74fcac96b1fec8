import { Chip, Group, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LIVE_KINDS, type LiveKind } from './liveEvent';
import { useLiveNames } from './useLiveNames';
import type { LiveParams } from './useLiveParams';

/** The campaign the server streams (a new stream on each change) and the kinds shown of it. */
export function LiveFilters({
  params,
  seen,
  onChange,
}: {
  params: LiveParams;
  /** Campaigns of the events received, offered too: one who may get reports but not read campaigns has no lookups. */
  seen: (string | null)[];
  onChange: (next: Partial<LiveParams>) => void;
}) {
  const { t } = useTranslation('events');
  const { campaignGroups, campaign } = useLiveNames();
  const data = campaignGroups.map((group) => ({ group: t(`live.filters.${group.kind}`), items: group.options }));
  const listed = new Set(campaignGroups.flatMap((group) => group.options.map((option) => option.value)));
  // The campaign in the URL is among them, so the select names it even before (or without) the lookups.
  const others = [...new Set([params.campaign, ...seen])].filter(
    (id): id is string => typeof id === 'string' && !listed.has(id),
  );
  if (others.length > 0) {
    data.push({ group: t('live.filters.seen'), items: others.map((id) => ({ value: id, label: campaign(id) })) });
  }

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
