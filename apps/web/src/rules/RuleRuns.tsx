import { Accordion, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRuleRuns } from '../api/useRules';
import { formatDateTime } from '../components/list/formatDateTime';
import { OutcomeTable } from './OutcomeTable';

/** The log of a saved rule's runs, newest first: when, how many rows matched, and what was done or skipped. */
export function RuleRuns({ ruleId }: { ruleId: number }) {
  const { t, i18n } = useTranslation('rules');
  const runs = useRuleRuns(ruleId);
  const list = runs.data?.list ?? [];
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('runs.title')}
      </Title>
      {runs.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('runs.empty')}
        </Text>
      )}
      {list.length > 0 && (
        <Accordion variant="separated" multiple defaultValue={[String(list[0]?.id)]}>
          {list.map((run) => (
            <Accordion.Item key={run.id} value={String(run.id)} data-testid="rule-run">
              <Accordion.Control>
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {formatDateTime(run.started_at, i18n.language)}
                  </Text>
                  <Badge variant="light" color={run.error ? 'red' : run.matched > 0 ? 'blue' : 'gray'}>
                    {run.error ? t('runs.failed') : t('runs.matched', { count: run.matched })}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('runs.window', { from: formatDateTime(run.window_start, i18n.language) })}
                  </Text>
                  {run.error && (
                    <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
                      {run.error}
                    </Text>
                  )}
                  {run.rows.length > 0 ? (
                    <OutcomeTable
                      rows={run.rows}
                      preview={false}
                      caption={t('runs.rowsOf', { when: formatDateTime(run.started_at, i18n.language) })}
                    />
                  ) : (
                    !run.error && (
                      <Text size="sm" c="dimmed">
                        {t('runs.nothing')}
                      </Text>
                    )
                  )}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
