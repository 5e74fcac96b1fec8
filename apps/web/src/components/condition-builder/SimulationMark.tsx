import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { testedValue, Verdict } from '../simulation/Verdict';
import { useConditionBuilderContext } from './ConditionBuilderContext';

/** A node's verdict in the last simulation, and for a rule what the visitor had; nothing without one. */
export function SimulationMark({ id }: { id: string }) {
  const { t } = useTranslation();
  const mark = useConditionBuilderContext().marks?.get(id);
  if (!mark) return null;
  return (
    <Group gap="xs" wrap="nowrap" data-verdict={mark.verdict} mb={mark.type === 'rule' ? 4 : 0}>
      <Verdict verdict={mark.verdict} />
      {mark.type === 'rule' && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('resources:simulator.visitorHad')} <bdi dir="ltr">{testedValue(mark.value)}</bdi>
        </Text>
      )}
    </Group>
  );
}

/** The edge colour of a marked node: teal for true, red for false. */
export function useMarkColor(id: string): string | undefined {
  const mark = useConditionBuilderContext().marks?.get(id);
  if (!mark) return undefined;
  return mark.verdict ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)';
}
