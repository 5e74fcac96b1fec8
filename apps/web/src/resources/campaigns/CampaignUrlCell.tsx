import { Group, Text } from '@mantine/core';
import { CopyValueButton } from '../../components/copy/CopyValueButton';

/** A campaign URL in a list row: as much of it as fits (all of it on hover), and Copy. */
export function CampaignUrlCell({ url }: { url: string }) {
  if (url === '') return <Text c="dimmed">—</Text>;
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" ff="monospace" dir="ltr" truncate="end" maw={280} title={url}>
        {url}
      </Text>
      <CopyValueButton value={url} />
    </Group>
  );
}
