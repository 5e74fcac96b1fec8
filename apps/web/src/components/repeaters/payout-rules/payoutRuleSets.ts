import { ALL_CONDITION_TEXT, DEFAULT_PAYOUT } from '@switchyard/domain';

// The payout rule sets of a campaign as the form holds them (§3.5): one per postback event.

export interface PayoutRule {
  id: string;
  payout: number;
  payout_id: number;
  priority: number;
  /** The stored condition as JSON text (§3.8). */
  condition: string;
}

export interface PayoutRuleSet {
  id: string;
  postback_event_external_id: string;
  event_name: string;
  default_payout: number;
  rules: PayoutRule[];
}

/** A postback event the campaign takes: its external id and its name. */
export interface CampaignPostbackEvent {
  value: string;
  label: string;
}

let lastRowId = 0;
/** A row id as the originals make them: a time stamp, kept unique within one editor session. */
export function newPayoutRowId(): string {
  lastRowId += 1;
  return `${Date.now()}${String(lastRowId).padStart(3, '0')}`;
}

export function newPayoutRule(priority: number): PayoutRule {
  return { id: newPayoutRowId(), payout: 0, payout_id: 0, priority, condition: ALL_CONDITION_TEXT };
}

export function newPayoutRuleSet(event: CampaignPostbackEvent): PayoutRuleSet {
  return {
    id: newPayoutRowId(),
    postback_event_external_id: event.value,
    event_name: event.label,
    default_payout: DEFAULT_PAYOUT,
    rules: [],
  };
}

/** §3.5: a rule's priority is its position. */
export function withPriorities(rules: readonly PayoutRule[]): PayoutRule[] {
  return rules.map((rule, priority) => (rule.priority === priority ? rule : { ...rule, priority }));
}

/** A set that holds nothing an operator typed: dropping it loses nothing. */
export function isBlankRuleSet(set: PayoutRuleSet): boolean {
  return set.rules.length === 0 && !set.default_payout;
}

/** What a stored value holds, read leniently (a record saved before this editor, or nothing). */
export function readPayoutRuleSets(value: unknown): PayoutRuleSet[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((set): set is Record<string, unknown> => typeof set === 'object' && set !== null)
    .map((set) => ({
      id: String(set.id ?? newPayoutRowId()),
      postback_event_external_id: String(set.postback_event_external_id ?? ''),
      event_name: String(set.event_name ?? ''),
      default_payout: typeof set.default_payout === 'number' ? set.default_payout : DEFAULT_PAYOUT,
      rules: Array.isArray(set.rules)
        ? withPriorities(
            (set.rules as Record<string, unknown>[]).map((rule, index) => ({
              id: String(rule.id ?? newPayoutRowId()),
              payout: typeof rule.payout === 'number' ? rule.payout : 0,
              payout_id: typeof rule.payout_id === 'number' ? rule.payout_id : 0,
              priority: index,
              condition: typeof rule.condition === 'string' ? rule.condition : ALL_CONDITION_TEXT,
            })),
          )
        : [],
    }));
}

/**
 * The sets in step with the campaign's postback events (§3.5): one set per event, in the events' order,
 * named after the event. A set whose event left the campaign is dropped when blank and otherwise kept
 * (after the campaign's sets): an operator who removes an event by mistake must not lose its rules, and
 * removes such a set with its own button. Returns `sets` itself when nothing changes.
 */
export function syncPayoutRuleSets(
  sets: readonly PayoutRuleSet[],
  events: readonly CampaignPostbackEvent[],
): PayoutRuleSet[] {
  const byEvent = new Map(sets.map((set) => [set.postback_event_external_id, set]));
  const chosen = new Set(events.map((event) => event.value));
  const followed = events.map((event) => {
    const set = byEvent.get(event.value);
    if (!set) return newPayoutRuleSet(event);
    // A name missing from the lookup (an archived event) keeps the stored one.
    return event.label && event.label !== event.value && set.event_name !== event.label
      ? { ...set, event_name: event.label }
      : set;
  });
  const kept = sets.filter((set) => !chosen.has(set.postback_event_external_id) && !isBlankRuleSet(set));
  const next = [...followed, ...kept];
  const unchanged = next.length === sets.length && next.every((set, index) => set === sets[index]);
  return unchanged ? (sets as PayoutRuleSet[]) : next;
}

/** The campaign's chosen postback events with their names from the lookup (the id while unknown). */
export function campaignPostbackEvents(
  entries: unknown,
  names: readonly { value: string | number; label: string }[],
): CampaignPostbackEvent[] {
  if (!Array.isArray(entries)) return [];
  const labels = new Map(names.map((option) => [String(option.value), option.label]));
  return entries
    .map((entry) => String((entry as { postback_event_external_id?: unknown })?.postback_event_external_id ?? ''))
    .filter(Boolean)
    .map((value) => ({ value, label: labels.get(value) ?? value }));
}
