import { Badge, Box, Group, Stack, Table, Text } from '@mantine/core';
import type { RuleRowOutcome } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useRuleLabels } from './useRuleLabels';

type Outcome = RuleRowOutcome['actions'][number];
type Status = 'done' | 'would' | 'skipped';

const STATUS_COLORS: Record<Status, string> = { done: 'teal', would: 'blue', skipped: 'gray' };

/** The engine's fixed words for an action it did not take (engine.ts, actions.ts). */
const SKIPPED = [/^cooldown$/, /^nothing to change$/, /is already excluded$/, /^not paused: /, /^the campaign /];

function statusOf(action: Outcome, preview: boolean): Status {
  if (action.done) return 'done';
  if (SKIPPED.some((pattern) => pattern.test(action.detail))) return 'skipped';
  // A preview takes no action; a run that did not is a failure, whose reason the detail tells.
  return preview ? 'would' : 'skipped';
}

/** Fixed reasons in the user's language; any other detail (names, errors of a target) as the server wrote it. */
function useDetail() {
  const { t } = useTranslation('rules');
  return (action: Outcome): string => {
    if (action.detail === 'cooldown') return t('outcome.cooldown');
    if (action.detail === 'nothing to change') return t('outcome.nothingToChange');
    if (action.detail === 'notified instead of pausing the last one enabled') return t('outcome.guardNotified');
    if (action.detail.startsWith('not paused: ')) return t('outcome.guard', { detail: action.detail.slice(12) });
    // A notification's detail repeats the row's values, which the table shows already.
    return action.type === 'notify' ? '' : action.detail;
  };
}

/** What a rule did or would do, row by row: the row, the values that decided it, and each action's outcome. */
export function OutcomeTable({
  rows,
  preview,
  caption,
}: {
  rows: RuleRowOutcome[];
  preview: boolean;
  caption: string;
}) {
  const { t, i18n } = useTranslation('rules');
  const labels = useRuleLabels();
  const detail = useDetail();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (
    // Scrolls sideways on a phone; with nothing to focus inside, the region itself takes the keyboard.
    <Box role="region" aria-label={caption} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table withTableBorder verticalSpacing="xs" miw={560} aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('outcome.row')}</Table.Th>
            <Table.Th>{t('outcome.values')}</Table.Th>
            <Table.Th>{t('outcome.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.value ?? row.label} data-testid="rule-outcome">
              <Table.Td>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {row.label}
                </Text>
                {row.value !== null && row.value !== row.label && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {row.value}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  {Object.entries(row.values).map(([metric, value]) => (
                    <Text size="sm" key={metric}>
                      {labels.metric(metric)}: <bdi>{number.format(value)}</bdi>
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  {row.actions.map((action, index) => {
                    const status = statusOf(action, preview);
                    const reason = detail(action);
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: one row's actions in the rule's order
                      <Group key={index} gap={6} wrap="nowrap" align="flex-start">
                        <Badge variant="light" color={STATUS_COLORS[status]} style={{ flexShrink: 0 }}>
                          {t(`outcome.status.${status}`)}
                        </Badge>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          <Text span fw={600} size="sm">
                            {t(`actions.${action.type}`)}
                          </Text>
                          {reason && ` — ${reason}`}
                        </Text>
                      </Group>
                    );
                  })}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
