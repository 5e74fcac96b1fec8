import { Badge, type MantineColor } from '@mantine/core';
import type { PostbackOutcome } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

/**
 * Green for a new conversion, blue for one that changed state, yellow and orange for what was
 * acknowledged without a change, red and pink for what was refused or matched nothing.
 */
export const OUTCOME_COLORS: Record<PostbackOutcome, MantineColor> = {
  converted: 'teal',
  status_changed: 'blue',
  duplicate: 'yellow',
  unchanged: 'orange',
  unknown_click: 'red',
  missing_click_id: 'grape',
  refused_key: 'red',
  refused_address: 'red',
  invalid_payout: 'pink',
  unknown_currency: 'pink',
  unknown_status: 'pink',
  too_long: 'pink',
  unconvertible_payout: 'pink',
};

export interface OutcomeBadgeProps {
  outcome: PostbackOutcome;
  /**
   * A recorded postback whose event does not count as a conversion (a registration, a status no postback
   * event takes): it says "Recorded", in grey, not "Converted", since the reports count it in revenue but
   * not in conversions.
   */
  notCounted?: boolean;
}

/** The outcome of an incoming postback or an imported line. */
export function OutcomeBadge({ outcome, notCounted = false }: OutcomeBadgeProps) {
  const { t } = useTranslation('postbacks');
  // Badges truncate their text by default; in a table cell the whole word must show.
  return (
    <Badge
      color={notCounted ? 'gray' : OUTCOME_COLORS[outcome]}
      variant="light"
      size="sm"
      miw="max-content"
      data-outcome={outcome}
      data-counted={outcome === 'converted' ? String(!notCounted) : undefined}
    >
      {notCounted ? t('outcomes.recorded') : t(`outcomes.${outcome}`)}
    </Badge>
  );
}
