import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { getResource, type OptimizationAnswer, type OptimizationArm } from '@switchyard/domain';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { lookupOptionOf, useLookupRecords } from '../../api/useLookup';

const key = (name: string) => `optimization:${name}`;

type Kind = 'api' | 'tracker';
type FlowRecord = { path_groups?: { id: string; name?: string; paths?: PathRecord[] }[] };
type PathRecord = {
  id: string;
  name?: string;
  offers?: { id: string; offer_external_id: string }[];
  landers?: { id: string; lander_external_id: string }[];
};

/**
 * The flow editor's "Optimization" tab: for each path group that tunes its weights, each arm's weight as
 * set and as routing now uses it, the metric's estimate with its 95 % interval, and its chance of being
 * best; editors may recompute at once.
 */
export function FlowOptimization({ kind, flowId, flow }: { kind: Kind; flowId: string; flow: FlowRecord }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const base = `${kind === 'tracker' ? 'tracker/flows' : 'flows'}/${encodeURIComponent(flowId)}/optimization`;
  const queryKey = ['optimization', kind, flowId];
  const query = useQuery({ queryKey, queryFn: () => api<OptimizationAnswer>(base) });
  const recompute = useMutation({
    mutationFn: () => api<OptimizationAnswer>(`${base}/recompute`, { method: 'POST' }),
    onSuccess: (answer) => client.setQueryData(queryKey, answer),
  });
  const names = useArmNames(kind, flow);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(i18n.language);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  if (query.isError) return <Alert color="red">{t(key('failed'))}</Alert>;
  const groups = query.data?.groups ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Text c="dimmed" maw={720}>
          {t(key('intro'))}
        </Text>
        {groups.length > 0 && (
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} aria-hidden />}
            loading={recompute.isPending}
            onClick={() => recompute.mutate()}
          >
            {t(key('recompute'))}
          </Button>
        )}
      </Group>
      {query.isSuccess && groups.length === 0 && <Text>{t(key('none'))}</Text>}
      {groups.map((group) => (
        <Stack key={group.group_id} gap="xs" data-testid="optimization-group">
          <Title order={3} size="h5">
            {group.name || group.group_id} · {t(key(`metrics.${group.metric}`))}
          </Title>
          <Text size="sm" c="dimmed">
            {group.computed_at
              ? t(key('computedAt'), { time: time.format(new Date(group.computed_at)) })
              : t(key('notYet'))}
          </Text>
          {!group.moved && (
            <Alert color="gray" variant="light">
              {t(key('waiting'))}
            </Alert>
          )}
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t(key('arm'))}</Table.Th>
                  <Table.Th ta="end">{t(key('configured'))}</Table.Th>
                  <Table.Th ta="end">{t(key('live'))}</Table.Th>
                  <Table.Th ta="end">{t(key('estimate'))}</Table.Th>
                  <Table.Th ta="end">{t(key('pBest'))}</Table.Th>
                  <Table.Th ta="end">{t(key('clicks'))}</Table.Th>
                  <Table.Th ta="end">{t(key('conversions'))}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {group.arms.map((arm) => (
                  <Table.Tr key={arm.arm} data-testid="optimization-arm">
                    <Table.Td>{names(arm)}</Table.Td>
                    <Table.Td ta="end">{percent.format(arm.configured_share)}</Table.Td>
                    <Table.Td ta="end" fw={600}>
                      {percent.format(arm.live_share)}
                    </Table.Td>
                    <Table.Td ta="end">{estimate(arm, group.metric === 'cr' ? percent : count)}</Table.Td>
                    <Table.Td ta="end">{percent.format(arm.p_best)}</Table.Td>
                    <Table.Td ta="end">{count.format(arm.clicks)}</Table.Td>
                    <Table.Td ta="end">{count.format(arm.conversions)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      ))}
    </Stack>
  );
}

function estimate(arm: OptimizationArm, format: Intl.NumberFormat): string {
  return `${format.format(arm.mean)} (${format.format(arm.low)} – ${format.format(arm.high)})`;
}

/** An arm's name: its path's, or its offer's or lander's with the path it is in. */
function useArmNames(kind: Kind, flow: FlowRecord) {
  const { t } = useTranslation();
  const offerDefinition = getResource(kind === 'tracker' ? 'tracker-offers' : 'offers');
  const landerDefinition = getResource('tracker-landers');
  const offers = useLookupRecords(offerDefinition);
  const landers = useLookupRecords(landerDefinition, { enabled: kind === 'tracker' });
  const label = (records: typeof offers, definition: typeof offerDefinition, id: string) => {
    const record = records.find((candidate) => candidate.external_id === id);
    return record ? lookupOptionOf(definition, record).label : id;
  };
  const paths = new Map(
    (flow.path_groups ?? []).flatMap((group) => (group.paths ?? []).map((path) => [path.id, path] as const)),
  );
  return (arm: OptimizationArm): string => {
    const path = paths.get(arm.path_id);
    const pathName = path?.name || `${t(key('kinds.path'))} ${arm.path_id}`;
    if (arm.kind === 'path') return pathName;
    const row =
      arm.kind === 'offer'
        ? path?.offers?.find((candidate) => candidate.id === arm.row_id)?.offer_external_id
        : path?.landers?.find((candidate) => candidate.id === arm.row_id)?.lander_external_id;
    const name = row
      ? label(arm.kind === 'offer' ? offers : landers, arm.kind === 'offer' ? offerDefinition : landerDefinition, row)
      : t(key(`kinds.${arm.kind}`));
    return t(key('inPath'), { arm: name, path: pathName });
  };
}
