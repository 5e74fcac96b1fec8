import { Text } from '@mantine/core';

/** An id (click id, txid) as sent: monospace, left to right even in Arabic, cut short with the whole in a tooltip. */
export function LogId({ value, maw = 180 }: { value: string | null; maw?: number }) {
  if (!value) return null;
  return (
    <Text ff="monospace" size="xs" dir="ltr" truncate="end" maw={maw} title={value}>
      {value}
    </Text>
  );
}
