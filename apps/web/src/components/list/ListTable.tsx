import { Anchor, Badge, Group, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResourceListContext } from './ResourceListContext';
import { RowActions } from './RowActions';
import './listTable.css';
import { SortableHeader } from './SortableHeader';
import type { ListRecord } from './useResourceListController';

function cellValue(value: unknown): ReactNode {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The records of the current page; archived rows carry a badge and are dimmed. */
export function ListTable() {
  const { t } = useTranslation();
  const { definition, columns, records, recordId, editPath, isArchived, canArchive, canClone, isFetching } =
    useResourceListContext();
  const hasActions = canArchive || canClone;
  // A list with a status column marks archived rows there; otherwise the link cell carries the badge.
  const hasStatusColumn = columns.some((column) => column.accessor === 'status');
  const linkIndex = Math.max(
    0,
    columns.findIndex((column) => column.link),
  );

  return (
    // Its own sideways scroll at a phone's width, reachable by keyboard; at a desktop's the columns fit:
    // long texts are cut to two lines and the actions stay at the row's end.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section className="sy-list-scroll" aria-label={t(`resources:${definition.name}.title`)} tabIndex={0}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-busy={isFetching} className="sy-list-table">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <SortableHeader key={column.accessor} accessor={column.accessor}>
                {t(column.label)}
              </SortableHeader>
            ))}
            {hasActions && <Table.Th className="sy-list-actions">{t('resources:list.actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record: ListRecord) => {
            const archived = isArchived(record);
            return (
              <Table.Tr key={String(recordId(record))} data-archived={archived || undefined}>
                {columns.map((column, index) => {
                  const content = column.render ? column.render(record) : cellValue(record[column.accessor]);
                  return (
                    <Table.Td
                      key={column.accessor}
                      opacity={archived ? 0.55 : undefined}
                      className={index === linkIndex ? 'sy-list-name' : 'sy-list-cell'}
                    >
                      {index === linkIndex ? (
                        <Group gap="xs" wrap="nowrap">
                          <Anchor
                            component={Link}
                            to={editPath(record)}
                            fw={500}
                            className="sy-list-clamp"
                            title={typeof content === 'string' ? content : undefined}
                          >
                            {content}
                          </Anchor>
                          {archived && !hasStatusColumn && (
                            <Badge color="gray" variant="outline" size="sm">
                              {t('resources:list.archivedBadge')}
                            </Badge>
                          )}
                        </Group>
                      ) : typeof content === 'string' ? (
                        <span className="sy-list-clamp" title={content}>
                          {content}
                        </span>
                      ) : (
                        content
                      )}
                    </Table.Td>
                  );
                })}
                {hasActions && (
                  <Table.Td className="sy-list-actions">
                    <RowActions record={record} />
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </section>
  );
}
