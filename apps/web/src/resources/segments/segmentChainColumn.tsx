import { Badge, Group, Text } from '@mantine/core';
import type { ListColumn } from '../../components/list/types';
import type { Row } from '../screens/columns';
import type { SegmentChains } from './useSegmentChains';

const SHOWN = 4;

/** The segments a segment refers to, directly or through others (`segments_chain`). */
export function segmentChainColumn(chains: SegmentChains): ListColumn<Row> {
  return {
    accessor: 'segments_chain',
    label: 'resources:segments.fields.segments_chain',
    render: (record) => {
      const chain = chains.get(String(record.external_id)) ?? [];
      if (chain.length === 0) return <Text c="dimmed">—</Text>;
      return (
        <Group gap={4}>
          {chain.slice(0, SHOWN).map((name, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two segments may share a name.
            <Badge key={index} variant="light" color="gray" size="sm" tt="none" miw="max-content">
              {name}
            </Badge>
          ))}
          {chain.length > SHOWN && (
            <Text span size="xs" c="dimmed">
              +{chain.length - SHOWN}
            </Text>
          )}
        </Group>
      );
    },
  };
}
