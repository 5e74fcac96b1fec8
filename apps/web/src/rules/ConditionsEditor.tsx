import { ActionIcon, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { RULE_OPERATORS } from '@switchyard/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type ConditionValues, NEW_CONDITION } from './ruleValues';
import { useRuleLabels } from './useRuleLabels';

/** The most conditions a rule holds (the server's limit). */
const MAX_CONDITIONS = 20;

interface Props {
  conditions: ConditionValues[];
  onChange: (conditions: ConditionValues[]) => void;
  /** A field's error by its API path (`conditions.0.metric`), in the user's language. */
  error: (path: string) => string | undefined;
}

/** The metric builder: each condition compares a report metric with a number, on a minimum sample of clicks. */
export function ConditionsEditor({ conditions, onChange, error }: Props) {
  const { t } = useTranslation('rules');
  const labels = useRuleLabels();
  const change = (index: number, patch: Partial<ConditionValues>) =>
    onChange(conditions.map((condition, at) => (at === index ? { ...condition, ...patch } : condition)));
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t('form.conditionsHint')}
      </Text>
      {conditions.map((condition, index) => (
        // Conditions have no identity of their own: their place is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Stack key={index} gap={4}>
          {index > 0 && (
            <Text size="sm" fw={600}>
              {t('form.and')}
            </Text>
          )}
          <Group gap="xs" align="flex-start" wrap="nowrap" data-testid="rule-condition">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" style={{ flex: 1 }}>
              <Select
                label={t('form.metric')}
                data={labels.metricOptions}
                value={condition.metric}
                onChange={(metric) => metric && change(index, { metric })}
                allowDeselect={false}
                searchable
                error={error(`conditions.${index}.metric`)}
              />
              <Select
                label={t('form.operator')}
                data={RULE_OPERATORS.map((operator) => ({ value: operator, label: t(`operators.${opKey(operator)}`) }))}
                value={condition.operator}
                onChange={(operator) =>
                  operator && change(index, { operator: operator as ConditionValues['operator'] })
                }
                allowDeselect={false}
                error={error(`conditions.${index}.operator`)}
              />
              <TextInput
                label={t('form.value')}
                inputMode="decimal"
                value={condition.value}
                onChange={(event) => change(index, { value: event.currentTarget.value })}
                error={error(`conditions.${index}.value`)}
              />
              <TextInput
                label={t('form.minClicks')}
                inputMode="numeric"
                value={condition.min_clicks}
                onChange={(event) => change(index, { min_clicks: event.currentTarget.value })}
                error={error(`conditions.${index}.min_clicks`)}
              />
            </SimpleGrid>
            {conditions.length > 1 && (
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('form.removeCondition', { number: index + 1 })}
                onClick={() => onChange(conditions.filter((_, at) => at !== index))}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            )}
          </Group>
        </Stack>
      ))}
      {error('conditions') && (
        <Text size="sm" c="red">
          {error('conditions')}
        </Text>
      )}
      {conditions.length < MAX_CONDITIONS && (
        <Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => onChange([...conditions, { ...NEW_CONDITION }])}
          >
            {t('form.addCondition')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** i18n keys cannot hold `>`: each comparison is named. */
export function opKey(operator: (typeof RULE_OPERATORS)[number]): string {
  return { '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte', '=': 'eq' }[operator];
}
