import { Anchor, Group } from '@mantine/core';
import { EVENT_KINDS, type ReportGroup, type ReportRow } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { eventsPath, rowEventParams } from './eventParams';
import { useReportContext } from './ReportContext';

/**
 * A report row's "Show clicks / leads / conversions": the event log under the row's values and range.
 * `groups`: the groups the row has values of, when not the report's (a tree row above the last level).
 */
export function RowEventLinks({ row, name, groups }: { row?: ReportRow; name: string; groups?: ReportGroup[] }) {
  const { t } = useTranslation('events');
  const { params, range } = useReportContext();
  const target = rowEventParams(groups ? { ...params, groups } : params, range, row);
  return (
    <Group gap="xs" wrap="nowrap">
      {EVENT_KINDS.map((kind) => (
        <Anchor
          key={kind}
          component={Link}
          to={eventsPath(kind, target)}
          size="sm"
          title={t(`show.${kind}Of`, { name })}
          // The name starts with the words shown (a spoken command finds the link), then says whose. A
          // visually hidden part would be read as a separate block ("Show clicks , …").
          aria-label={`${t(`show.${kind}`)}, ${name}`}
        >
          {t(`show.${kind}`)}
        </Anchor>
      ))}
    </Group>
  );
}
