import { Box, Group, Stack, Text } from '@mantine/core';
import { type ConditionNode, describeCondition, type SimulationAnswer } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { testedValue, Verdict } from '../../../components/simulation/Verdict';

type Trace = SimulationAnswer['groups'][number]['condition_trace'];

const key = (name: string) => `resources:simulator.${name}`;

/**
 * A group's condition tree as routing tested it: each leaf read in the condition language's own words
 * (as the path-group header reads it), its verdict, and the value the visitor had.
 */
export function ConditionTrace({ trace }: { trace: Trace }) {
  const { t } = useTranslation();
  if (trace.type === 'AllCondition') {
    return (
      <Group gap="xs" wrap="nowrap">
        <Verdict verdict={trace.verdict} />
        <Text size="sm">{t('controls:conditionBuilder.allCondition')}</Text>
      </Group>
    );
  }
  if (trace.type === 'NotCondition' || trace.type === 'AndCondition' || trace.type === 'OrCondition') {
    const children = trace.condition ? [trace.condition] : (trace.conditions ?? []);
    const word = trace.type === 'NotCondition' ? 'NOT' : trace.type === 'AndCondition' ? 'AND' : 'OR';
    return (
      <Stack gap={4}>
        <Group gap="xs" wrap="nowrap">
          <Verdict verdict={trace.verdict} />
          <Text size="sm" fw={600} dir="ltr">
            {word}
          </Text>
        </Group>
        <Box ps="md" style={{ borderInlineStart: '2px solid var(--mantine-color-default-border)' }}>
          <Stack gap={4}>
            {children.map((child, index) => (
              // The tree is an answer, drawn once; its order is its identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <ConditionTrace key={index} trace={child} />
            ))}
          </Stack>
        </Box>
      </Stack>
    );
  }
  const reading = describeCondition({ type: trace.type, data: trace.data } as ConditionNode);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-verdict={trace.verdict}>
      <Verdict verdict={trace.verdict} />
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <bdi dir="ltr">{reading}</bdi>{' '}
        <Text span c="dimmed" size="sm">
          {t(key('tested'))} <bdi dir="ltr">{testedValue(trace.value)}</bdi>
        </Text>
      </Text>
    </Group>
  );
}
