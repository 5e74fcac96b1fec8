import { Badge, type MantineColor } from '@mantine/core';
import type { PostbackLogEntry, PostbackOutcome } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { recordedNotCounted } from './outcomeMessage';

/** Green for a conversion, yellow for a repeat, red for a postback nothing could be matched to. */
export const OUTCOME_COLORS: Record<PostbackOutcome, MantineColor> = {
  converted: 'teal',
  duplicate: 'yellow',
  unknown_click: 'red',
  missing_click_id: 'grape',
};

/**
 * The outcome of an incoming postback. A recorded postback whose event does not count as a conversion
 * (a registration, a status no postback event takes) says "Recorded", in grey, not "Converted": the
 * reports count it in revenue but not in conversions.
 */
export function OutcomeBadge({ entry }: { entry: PostbackLogEntry }) {
  const { t } = useTranslation('postbacks');
  const notCounted = recordedNotCounted(entry);
  // Badges truncate their text by default; in a table cell the whole word must show.
  return (
    <Badge
      color={notCounted ? 'gray' : OUTCOME_COLORS[entry.outcome]}
      variant="light"
      size="sm"
      miw="max-content"
      data-outcome={entry.outcome}
      data-counted={entry.outcome === 'converted' ? String(!notCounted) : undefined}
    >
      {notCounted ? t('outcomes.recorded') : t(`outcomes.${entry.outcome}`)}
    </Badge>
  );
}
