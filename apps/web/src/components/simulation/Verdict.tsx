import { Badge } from '@mantine/core';
import type { SimulationAnswer, TracedValue } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';

const key = (name: string) => `resources:simulator.${name}`;

/** A value a rule tested, as read: a list joined, nothing as a dash. */
export function testedValue(value: TracedValue | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** True or false, in words and colour, so it reads without the colour too. */
export function Verdict({ verdict }: { verdict: boolean }) {
  const { t } = useTranslation();
  return (
    // Outlined, so it reads on the chosen group's tint too; it keeps its width beside a long reading.
    <Badge size="sm" variant="outline" color={verdict ? 'teal' : 'red'} style={{ flexShrink: 0 }}>
      {t(verdict ? key('true') : key('false'))}
    </Badge>
  );
}

/** How a path group fared: matched, not matched, or why it was not tested. */
export function GroupStatus({ group }: { group: SimulationAnswer['groups'][number] }) {
  const { t } = useTranslation();
  if (group.skipped_reason) return <Badge color="gray">{t(key(`skipped.${group.skipped_reason}`))}</Badge>;
  return <Badge color={group.matched ? 'teal' : 'red'}>{t(group.matched ? key('matched') : key('notMatched'))}</Badge>;
}
