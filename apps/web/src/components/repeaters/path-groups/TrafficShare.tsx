import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface TrafficShareProps {
  /** From `trafficShares`: 0 to 1, or null for a disabled row, which shows nothing. */
  share: number | null;
  /** Says what the share is of (the group's or the path's traffic). */
  hint: string;
}

/** A path's or a row's share of traffic, beside its weight: "33.3% of traffic" in the interface's language. */
export function TrafficShare({ share, hint }: TrafficShareProps) {
  const { t, i18n } = useTranslation();
  if (share === null) return null;
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(share);
  return (
    <Text span size="xs" fw={600} title={hint} data-testid="traffic-share" style={{ whiteSpace: 'nowrap' }}>
      {t('controls:pathGroups.share', { share: percent })}
    </Text>
  );
}
