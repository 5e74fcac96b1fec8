import { Alert, Stack, Text } from '@mantine/core';
import type { SimulationAnswer } from '@switchyard/domain';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { routingReasonText } from '../../components/simulation/routingReason';
import {
  type Destination,
  destinationThen,
  destinationToday,
  type InspectedEvent,
  sameDestination,
} from './destination';

/** The routing reason in the simulator's words; an unknown one as the server named it. */
export const reasonText = routingReasonText;

/** "Would go to {offer} today" / "It went to {offer}": the lander first when there is one; refused without. */
function sentence(t: TFunction, destination: Destination, when: 'today' | 'then'): string {
  const { lander, offer } = destination;
  if (lander && offer) return t(`inspector.${when}.landerOffer`, { lander: lander.name, offer: offer.name });
  if (offer) return t(`inspector.${when}.offer`, { offer: offer.name });
  if (lander) return t(`inspector.${when}.lander`, { lander: lander.name });
  return t(`inspector.${when}.refused`, { reason: reasonText(t, destination.reason) });
}

/**
 * "would go to X today" — the replay's decision in one sentence, whether it differs from what
 * happened when the event was routed, and, when today's routing reads the visitor as a bot, why.
 */
export function ReplayVerdict({ event, replay }: { event: InspectedEvent; replay: SimulationAnswer | null }) {
  const { t } = useTranslation('events');
  const then = destinationThen(event, replay);
  const today = destinationToday(replay);
  if (!today || !replay) {
    return (
      <Alert color="gray" variant="light" title={t('inspector.inactive')}>
        {sentence(t, then, 'then')}
      </Alert>
    );
  }
  const same = sameDestination(then, today);
  // Refused reads as a warning even when it was refused then too; the words say which.
  const refused = !today.offer && !today.lander;
  return (
    <Alert
      color={refused ? 'red' : same ? 'teal' : 'yellow'}
      variant="light"
      title={<bdi>{sentence(t, today, 'today')}</bdi>}
    >
      <Stack gap={4}>
        {today.pathGroup && (
          <Text size="sm">
            <bdi>{t('inspector.inGroup', { name: today.pathGroup.name })}</bdi>
          </Text>
        )}
        <Text size="sm" fw={600}>
          {same ? t('inspector.same') : t('inspector.differs')}
        </Text>
        {!same && (
          <Text size="sm">
            <bdi>{sentence(t, then, 'then')}</bdi>
          </Text>
        )}
        {replay.context.isBot && (
          <Text size="sm">
            {t('inspector.readAsBot', {
              reason: replay.context.botReason
                ? t(`reports:botReasons.${replay.context.botReason}`, { defaultValue: replay.context.botReason })
                : '—',
            })}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
