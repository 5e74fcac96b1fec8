import { Group, Table, UnstyledButton } from '@mantine/core';
import { SORT_FIELDS } from '@switchyard/domain';
import { IconArrowsSort, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useResourceListContext } from './ResourceListContext';
import type { SortField } from './useListParams';

export interface SortableHeaderProps {
  accessor: string;
  children: ReactNode;
}

function isSortField(accessor: string): accessor is SortField {
  return (SORT_FIELDS as readonly string[]).includes(accessor);
}

/** A column header; name, created and updated sort the list (asc, then desc) through `?order_by=&order=`. */
export function SortableHeader({ accessor, children }: SortableHeaderProps) {
  const { params } = useResourceListContext();
  if (!isSortField(accessor)) return <Table.Th>{children}</Table.Th>;
  const active = params.order_by === accessor;
  const Icon = !active ? IconArrowsSort : params.order === 'asc' ? IconSortAscending : IconSortDescending;
  const next = active && params.order === 'asc' ? 'desc' : 'asc';
  return (
    <Table.Th aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => params.setSort(accessor, next)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {children}
          <Icon size={14} aria-hidden opacity={active ? 1 : 0.4} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
