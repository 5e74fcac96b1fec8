import { Badge, type MantineColor } from '@mantine/core';
import type { PostbackOutcome } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

/** Green for a conversion, yellow for a repeat, red for a postback nothing could be matched to. */
export const OUTCOME_COLORS: Record<PostbackOutcome, MantineColor> = {
  converted: 'teal',
  duplicate: 'yellow',
  unknown_click: 'red',
  missing_click_id: 'grape',
};

export function OutcomeBadge({ outcome }: { outcome: PostbackOutcome }) {
  const { t } = useTranslation('postbacks');
  // Badges truncate their text by default; in a table cell the whole word must show.
  return (
    <Badge color={OUTCOME_COLORS[outcome]} variant="light" size="sm" miw="max-content" data-outcome={outcome}>
      {t(`outcomes.${outcome}`)}
    </Badge>
  );
}
