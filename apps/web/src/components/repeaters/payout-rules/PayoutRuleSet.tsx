import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowType } from '../../condition-builder';
import { readConditionValue } from '../../condition-builder/builderTree';
import { NumberField } from '../../form/NumberField';
import { Repeater } from '../Repeater';
import { PayoutRuleRow } from './PayoutRuleRow';
import {
  newPayoutRowId,
  newPayoutRule,
  type PayoutRule,
  type PayoutRuleSet as TPayoutRuleSet,
  withPriorities,
} from './payoutRuleSets';

export interface PayoutRuleSetProps {
  set: TPayoutRuleSet;
  flowType: FlowType;
  /** False when the set's event left the campaign's postback events (the set is kept, §3.5). */
  inCampaign: boolean;
  onChange: (set: TPayoutRuleSet) => void;
  onRemove: () => void;
  /** The message under an input of this set: `default_payout`, `rules.1.payout`, `rules.1.condition`. */
  errorAt: (field: string) => string | undefined;
  disabled: boolean;
}

/** A loaded rule with a condition or a payout starts collapsed; a new or blank one starts open (§4). */
function startsExpanded(rule: PayoutRule): boolean {
  return !rule.payout && readConditionValue(rule.condition).tree.type === 'AllCondition';
}

/**
 * The payout rules of one postback event (§3.5): its default payout (0, minimum 0, step 0.01) and its
 * rules, each with a payout and a condition; a rule's priority is its position.
 */
export function PayoutRuleSet({
  set,
  flowType,
  inCampaign,
  onChange,
  onRemove,
  errorAt,
  disabled,
}: PayoutRuleSetProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () => new Set(set.rules.filter(startsExpanded).map((rule) => rule.id)),
  );
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const name = set.event_name || set.postback_event_external_id;

  return (
    <Paper withBorder p="sm" radius="sm" role="group" aria-label={t('controls:payoutRules.setLabel', { event: name })}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <Title order={5}>
            <bdi>{name}</bdi>
          </Title>
          <NumberField
            size="xs"
            maw={200}
            label={t('controls:payoutRules.defaultPayout')}
            min={0}
            step={0.01}
            decimalScale={2}
            value={set.default_payout}
            // A lone `-` keeps the payout it was typed over; -2 reaches validation (§5.1: minimum 0).
            onChange={(next) =>
              onChange({
                ...set,
                default_payout: next === null ? 0 : typeof next === 'number' ? next : set.default_payout,
              })
            }
            error={errorAt('default_payout')}
            disabled={disabled}
          />
        </Group>
        {!inCampaign && (
          <Alert color="orange" variant="light" p="xs">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm">{t('controls:payoutRules.eventRemoved')}</Text>
              {!disabled && (
                <Button size="compact-sm" color="red" variant="light" onClick={onRemove}>
                  {t('controls:payoutRules.removeSet')}
                </Button>
              )}
            </Group>
          </Alert>
        )}
        <Repeater<PayoutRule>
          rows={set.rules}
          // Every change, a deleted row included, reaches the form as the element's change (§4).
          onChange={(rules) => onChange({ ...set, rules })}
          normalize={withPriorities}
          createRow={() => {
            const rule = newPayoutRule(set.rules.length);
            setExpanded((current) => new Set(current).add(rule.id));
            return rule;
          }}
          duplicateRow={(rule) => {
            const copy = { ...rule, id: newPayoutRowId() };
            setExpanded((current) => new Set(current).add(copy.id));
            return copy;
          }}
          label={t('controls:payoutRules.rulesOf', { event: name })}
          addLabel={t('controls:payoutRules.addPayout')}
          emptyText={t('controls:payoutRules.noRules')}
          disabled={disabled}
          renderRow={(rule, index, update) => (
            <PayoutRuleRow
              rule={rule}
              position={index + 1}
              flowType={flowType}
              // A rule with a message shows it, open or not.
              expanded={
                expanded.has(rule.id) ||
                Boolean(errorAt(`rules.${index}.payout`) || errorAt(`rules.${index}.condition`))
              }
              onToggle={() => toggle(rule.id)}
              onChange={update}
              payoutError={errorAt(`rules.${index}.payout`)}
              conditionError={errorAt(`rules.${index}.condition`)}
              disabled={disabled}
            />
          )}
        />
      </Stack>
    </Paper>
  );
}
