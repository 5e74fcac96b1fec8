import { ActionIcon, Badge, Group, Input, Stack } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConditionBuilder, ConditionLabel, type FlowType } from '../../condition-builder';
import { NumberField } from '../../form/NumberField';
import type { PayoutRule } from './payoutRuleSets';
import { useFormatPayout } from './useFormatPayout';

export interface PayoutRuleRowProps {
  rule: PayoutRule;
  /** 1-based, as the labels say it. */
  position: number;
  flowType: FlowType;
  expanded: boolean;
  onToggle: () => void;
  onChange: (rule: PayoutRule) => void;
  payoutError?: string;
  conditionError?: string;
  disabled: boolean;
}

/**
 * One payout rule: its label (the payout and the condition read as one line, §3.5) and, expanded, the
 * payout (minimum 0, step 0.01) and the condition builder.
 */
export function PayoutRuleRow({
  rule,
  position,
  flowType,
  expanded,
  onToggle,
  onChange,
  payoutError,
  conditionError,
  disabled,
}: PayoutRuleRowProps) {
  const { t } = useTranslation();
  const formatPayout = useFormatPayout();
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="nowrap" align="center">
        <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
          {t('controls:payoutRules.rulePayout', { payout: formatPayout(rule.payout) })}
        </Badge>
        <ConditionLabel value={rule.condition} flowType={flowType} size="sm" style={{ flex: 1, minInlineSize: 0 }} />
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-label={t(expanded ? 'controls:payoutRules.collapseRule' : 'controls:payoutRules.expandRule', {
            position,
          })}
        >
          {expanded ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />}
        </ActionIcon>
      </Group>
      {expanded && (
        <Stack gap="xs">
          <NumberField
            size="xs"
            maw={200}
            label={t('controls:payoutRules.payout')}
            min={0}
            step={0.01}
            decimalScale={2}
            value={rule.payout}
            // A lone `-` keeps the payout it was typed over; -2 reaches validation (§5.1: minimum 0).
            onChange={(next) =>
              onChange({ ...rule, payout: next === null ? 0 : typeof next === 'number' ? next : rule.payout })
            }
            error={payoutError}
            disabled={disabled}
          />
          <ConditionBuilder
            value={rule.condition}
            onChange={(condition) => onChange({ ...rule, condition })}
            flowType={flowType}
            disabled={disabled}
          />
          {conditionError && <Input.Error>{conditionError}</Input.Error>}
        </Stack>
      )}
    </Stack>
  );
}
