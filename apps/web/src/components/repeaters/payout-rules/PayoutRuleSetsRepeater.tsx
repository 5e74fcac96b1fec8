import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FlowType } from '../../condition-builder';
import { wrapperProps } from '../../form/fieldProps';
import type { FormControlProps } from '../../form/types';
import { RepeaterField } from '../RepeaterField';
import { indexPath, rowErrors } from '../rowErrors';
import { PayoutRuleSet } from './PayoutRuleSet';
import {
  type CampaignPostbackEvent,
  readPayoutRuleSets,
  syncPayoutRuleSets,
  type PayoutRuleSet as TPayoutRuleSet,
} from './payoutRuleSets';

export interface PayoutRuleSetsRepeaterProps extends FormControlProps {
  /** The postback events chosen in the campaign, with their names. */
  events: readonly CampaignPostbackEvent[];
  /** Whose campaigns and segments the rule conditions offer. */
  flowType: FlowType;
}

/**
 * `payout-rule-sets-repeater` (§2.8, §3.5): `[{ id, postback_event_external_id, event_name,
 * default_payout, rules: [{ id, payout, payout_id, priority, condition }] }]`. One set per postback event
 * of the campaign, in their order; the sets follow the events (`syncPayoutRuleSets`). Every change,
 * deleting a rule included, is handed to `onChange`, the element's change callback (§4). Add Payout is
 * hidden while the element is disabled.
 */
export function PayoutRuleSetsRepeater(props: PayoutRuleSetsRepeaterProps) {
  const { value, onChange, error, fieldErrors, disabled, events, flowType } = props;
  const { t } = useTranslation();
  const sets = syncPayoutRuleSets(readPayoutRuleSets(value), events);
  const chosen = new Set(events.map((event) => event.value));
  // `1.rules.0.payout` → set 1, input `rules.0.payout`; the displayed sets are the stored ones once synced.
  const errors = rowErrors(error, fieldErrors, (path) => {
    const spot = indexPath(path);
    return spot && spot.index < sets.length && spot.field ? { row: spot.index, field: spot.field } : undefined;
  });
  const commit = (next: TPayoutRuleSet[]) => onChange(next);

  return (
    <RepeaterField {...wrapperProps(props)} error={errors.error}>
      {sets.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('controls:payoutRules.noEvents')}
        </Text>
      ) : (
        <Stack gap="sm">
          {sets.map((set, index) => (
            <PayoutRuleSet
              key={set.postback_event_external_id}
              set={set}
              flowType={flowType}
              inCampaign={chosen.has(set.postback_event_external_id)}
              onChange={(changed) => commit(sets.with(index, changed))}
              onRemove={() => commit(sets.filter((_, at) => at !== index))}
              errorAt={(field) => errors.at(index, field)}
              disabled={disabled}
            />
          ))}
        </Stack>
      )}
    </RepeaterField>
  );
}
