import { getResource } from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../../api/useLookup';
import type { FlowType } from '../../condition-builder';
import { useResourceFormContext } from '../../form/ResourceFormContext';
import type { FormControlProps } from '../../form/types';
import { PayoutRuleSetsRepeater } from './PayoutRuleSetsRepeater';
import { campaignPostbackEvents } from './payoutRuleSets';

const postbackEvents = getResource('postback-events');

/** What `element.input` of a `payout-rule-sets-repeater` element may carry. */
export interface PayoutRuleSetsInput {
  /** Whose campaigns and segments the conditions offer; 'api' when absent. */
  flowType?: FlowType;
  /** The form field holding the campaign's postback events; 'postback_events' when absent. */
  postbackEventsField?: string;
}

/**
 * The form control: the sets follow the campaign's postback events as the form holds them, named from the
 * postback-events lookup (or the element's `options`).
 */
export function PayoutRuleSetsRepeaterControl(props: FormControlProps) {
  const input = (props.element.input ?? {}) as PayoutRuleSetsInput;
  const { values } = useResourceFormContext();
  const lookup = useLookup(postbackEvents);
  const names = props.element.options ?? lookup;
  const entries = values[input.postbackEventsField ?? 'postback_events'];
  const events = useMemo(() => campaignPostbackEvents(entries, names), [entries, names]);
  return (
    <PayoutRuleSetsRepeater {...props} events={events} flowType={input.flowType === 'tracker' ? 'tracker' : 'api'} />
  );
}
