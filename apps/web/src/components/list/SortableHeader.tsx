import { Group, Table, UnstyledButton } from '@mantine/core';
import { LIST_STATS_FIGURES, SORT_FIELDS } from '@switchyard/domain';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useResourceListContext } from './ResourceListContext';
import type { SortField } from './useListParams';

export interface SortableHeaderProps {
  accessor: string;
  children: ReactNode;
  /** A figure's header: at the end of its column, and the largest first on the first click. */
  figure?: boolean;
}

/** What a column sorts by: its own field, or the figure of a `stats.<figure>` column. */
function sortFieldOf(accessor: string): SortField | undefined {
  if ((SORT_FIELDS as readonly string[]).includes(accessor)) return accessor as SortField;
  const figure = accessor.startsWith('stats.') ? accessor.slice('stats.'.length) : '';
  return (LIST_STATS_FIGURES as readonly string[]).includes(figure) ? (figure as SortField) : undefined;
}

/**
 * A column header; name, created, updated and the figures sort the list through `?order_by=&order=`
 * (names ascending first, figures descending first: the biggest is what a buyer looks for).
 */
export function SortableHeader({ accessor, children, figure = false }: SortableHeaderProps) {
  const { params } = useResourceListContext();
  const field = sortFieldOf(accessor);
  const align = figure ? ({ ta: 'end', className: 'sy-list-figure' } as const) : {};
  if (!field) return <Table.Th {...align}>{children}</Table.Th>;
  const active = params.order_by === field;
  const Icon = !active ? IconArrowsSort : params.order === 'asc' ? IconSortAscending : IconSortDescending;
  const first = figure ? 'desc' : 'asc';
  const next = active ? (params.order === 'asc' ? 'desc' : 'asc') : first;
  return (
    <Table.Th aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'} {...align}>
      <UnstyledButton onClick={() => params.setSort(field, next)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {children}
          {/* A figure's header shows its arrow only once it sorts: six arrows would push the figures off a
              1,400 px screen. */}
          {(active || !figure) && <Icon size={14} aria-hidden opacity={active ? 1 : 0.4} />}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
