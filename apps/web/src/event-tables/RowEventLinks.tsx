import { Anchor, Group } from '@mantine/core';
import { EVENT_KINDS, type ReportRow } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useReportContext } from '../reports/ReportContext';
import { eventsPath, rowEventParams } from './eventParams';

/** A report row's "Show clicks / leads / conversions": the event log under the row's values and range. */
export function RowEventLinks({ row, name }: { row?: ReportRow; name: string }) {
  const { t } = useTranslation('events');
  const { params, range } = useReportContext();
  const target = rowEventParams(params, range, row);
  return (
    <Group gap="xs" wrap="nowrap">
      {EVENT_KINDS.map((kind) => (
        <Anchor
          key={kind}
          component={Link}
          to={eventsPath(kind, target)}
          size="sm"
          aria-label={t(`show.${kind}Of`, { name })}
          title={t(`show.${kind}Of`, { name })}
        >
          {t(`show.${kind}`)}
        </Anchor>
      ))}
    </Group>
  );
}
