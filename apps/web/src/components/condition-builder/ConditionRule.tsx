import { ActionIcon, Group, Paper, rem, Select } from '@mantine/core';
import { VARS_KEYS } from '@switchyard/domain';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type BuilderRule, emptyRule, type NodePath, removeNode, replaceChild } from './builderTree';
import { useConditionBuilderContext } from './ConditionBuilderContext';
import { RuleValueInput, useRuleLabel } from './RuleValueInput';
import { fieldOfRule, OPERATION_KEYS } from './ruleFields';
import { SimulationMark, useMarkColor } from './SimulationMark';

/** One rule of a group (§2.7, §3.9): its field, operation (and var key), values, and a delete button. */
export function ConditionRule({ rule, path }: { rule: BuilderRule; path: NodePath }) {
  const { t } = useTranslation();
  const { root, change, fields, disabled } = useConditionBuilderContext();
  const label = useRuleLabel();
  const field = fieldOfRule(rule);
  const update = (next: BuilderRule) => change(replaceChild(root, path, next));
  const markColor = useMarkColor(rule.id);

  // A stored rule on a field no longer offered (availableRules) still shows under its own name.
  const offered = fields.some((candidate) => candidate.var === field.var) ? fields : [...fields, field];
  const fieldName = (name: string) => t(`controls:conditionBuilder.fields.${name}`, { defaultValue: name });
  const chooseField = (name: string | null) => {
    const chosen = offered.find((candidate) => candidate.var === name);
    if (chosen && chosen.var !== rule.var) update({ ...emptyRule(chosen), id: rule.id });
  };

  const keys = [...VARS_KEYS, ...(rule.key && !VARS_KEYS.includes(rule.key as never) ? [rule.key] : [])];

  return (
    <Paper
      withBorder
      p="xs"
      radius="sm"
      data-rule={rule.var}
      style={markColor ? { borderInlineStart: `4px solid ${markColor}` } : undefined}
    >
      <SimulationMark id={rule.id} />
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          {...label('field')}
          data={offered.map((candidate) => ({ value: candidate.var, label: fieldName(candidate.var) }))}
          value={field.var}
          onChange={chooseField}
          allowDeselect={false}
          searchable
          disabled={disabled}
          w={rem(180)}
        />
        {rule.condition === 'VarsCondition' && (
          <Select
            {...label('key')}
            data={keys}
            value={rule.key || null}
            onChange={(key) => update({ ...rule, key: key ?? '' })}
            allowDeselect={false}
            searchable
            placeholder={t('controls:conditionBuilder.choose')}
            disabled={disabled}
            w={rem(150)}
          />
        )}
        {field.operations.length > 0 && rule.condition !== 'CompareIntCondition' && (
          <Select
            {...label('operation')}
            data={field.operations.map((operation) => ({
              value: operation,
              label: t(`controls:conditionBuilder.operations.${OPERATION_KEYS[operation] ?? 'in'}`),
            }))}
            value={rule.operation ?? field.operations[0] ?? null}
            onChange={(operation) => operation && update({ ...rule, operation })}
            allowDeselect={false}
            disabled={disabled}
            w={rem(150)}
          />
        )}
        <RuleValueInput rule={rule} field={field} update={update} />
        {!disabled && (
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={t('controls:conditionBuilder.deleteRule')}
            title={t('controls:conditionBuilder.deleteRule')}
            onClick={() => change(removeNode(root, path))}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
