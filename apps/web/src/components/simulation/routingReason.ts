import type { TFunction } from 'i18next';

/** The routing decision's reasons the server stores and answers (traffic/rules/routing.ts DecisionReason). */
const ROUTING_REASONS = ['matched', 'backup_offer', 'no_matching_path_group', 'capped', 'no_offer'];

/**
 * A routing reason as a sentence in the interface language: the simulator, the inspector and
 * the event log say the same; a code this dashboard does not know yet shows as the server named it.
 */
export function routingReasonText(t: TFunction, reason: string): string {
  return t(
    ROUTING_REASONS.includes(reason) ? `resources:simulator.reasons.${reason}` : 'resources:simulator.reasons.other',
    { reason },
  );
}
