import { Group, Table, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useReportContext } from './ReportContext';
import type { ReportOrderField } from './reportParams';

export interface ReportSortHeaderProps {
  field: ReportOrderField;
  children: ReactNode;
  /** What the column means, shown on hover (ROI, CR, EPC). */
  hint?: string;
  numeric?: boolean;
  /** The first column, kept in view while the figures scroll. */
  sticky?: boolean;
}

/** A column header that sorts the report by its column (figures from the largest first). */
export function ReportSortHeader({ field, children, hint, numeric, sticky }: ReportSortHeaderProps) {
  const { params, setSort } = useReportContext();
  const active = params.order_by === field;
  const Icon = !active ? IconArrowsSort : params.order === 'asc' ? IconSortAscending : IconSortDescending;
  const button = (
    <UnstyledButton onClick={() => setSort(field)} fw={700} fz="sm" aria-description={hint}>
      <Group gap={4} wrap="nowrap" justify={numeric ? 'flex-end' : 'flex-start'}>
        {children}
        <Icon size={14} aria-hidden opacity={active ? 1 : 0.4} />
      </Group>
    </UnstyledButton>
  );
  return (
    <Table.Th
      aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'}
      ta={numeric ? 'end' : undefined}
      className={sticky ? 'sy-report-sticky' : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      {hint ? (
        <Tooltip label={hint} withArrow>
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </Table.Th>
  );
}
