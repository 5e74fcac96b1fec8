import { Badge, type MantineColor } from '@mantine/core';
import type { OutboundState } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

export const OUTBOUND_STATE_COLORS: Record<OutboundState, MantineColor> = {
  pending: 'blue',
  retrying: 'orange',
  sent: 'teal',
  failed: 'red',
};

export function OutboundStateBadge({ state }: { state: OutboundState }) {
  const { t } = useTranslation('postbacks');
  return (
    <Badge color={OUTBOUND_STATE_COLORS[state]} variant="light" size="sm" miw="max-content" data-state={state}>
      {t(`states.${state}`)}
    </Badge>
  );
}
