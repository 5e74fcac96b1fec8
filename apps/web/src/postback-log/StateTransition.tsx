import { Text } from '@mantine/core';
import type { ConversionState } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

export interface StateTransitionProps {
  /** The state the postback found the conversion in, when it moved it (or left it as it was). */
  from: ConversionState | null;
  /** The state the postback left it in. */
  to: ConversionState | null;
  size?: 'xs' | 'sm';
}

/**
 * "pending → approved", or the state alone for a new conversion. The arrow points the way the
 * script reads: right to left in Arabic.
 */
export function StateTransition({ from, to, size = 'xs' }: StateTransitionProps) {
  const { t, i18n } = useTranslation('postbacks');
  if (!to) return null;
  const name = (state: ConversionState) => t(`conversionStates.${state}`);
  const arrow = i18n.dir() === 'rtl' ? '←' : '→';
  return (
    <Text size={size} c={size === 'xs' ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }} data-state={to}>
      {from && from !== to ? `${name(from)} ${arrow} ${name(to)}` : name(to)}
    </Text>
  );
}
