import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSimulationMarks } from '../../simulation/SimulationMarks';

/** Says whose visit the groups below are marked for, and clears the marks. */
export function SimulationNotice() {
  const { t } = useTranslation();
  const marks = useSimulationMarks();
  if (!marks) return null;
  const chosen = marks.answer.path_group;
  return (
    <Alert color="teal" variant="light" p="sm" mb="sm" role="status">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {chosen ? t('resources:simulator.marksFor', { name: chosen.name }) : t('resources:simulator.marksForNoGroup')}
        </Text>
        <Button size="compact-sm" variant="default" onClick={marks.clear}>
          {t('resources:simulator.clearMarks')}
        </Button>
      </Group>
    </Alert>
  );
}
