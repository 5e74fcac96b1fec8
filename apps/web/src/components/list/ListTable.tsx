import { Anchor, Badge, Checkbox, Group, Table, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { recordName } from '../recordName';
import { FigureCell } from './listStats';
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

/** A record's name, cut to one line; the whole of it on hover (a row is one line high). */
function RecordLink({ to, content }: { to: string; content: ReactNode }) {
  const link = (
    <Anchor component={Link} to={to} fw={500} className="sy-list-link">
      {/* Its own direction, so a Latin name in Arabic is cut at its end, not its start. */}
      <Text component="span" inherit truncate="end" display="block" dir="auto">
        {content}
      </Text>
    </Anchor>
  );
  if (typeof content !== 'string' || content === '') return link;
  return (
    <Tooltip label={content} openDelay={300} multiline maw={420} events={{ hover: true, focus: false, touch: true }}>
      {link}
    </Tooltip>
  );
}

/** The records of the current page; archived rows carry a badge and are dimmed. */
export function ListTable() {
  const { t } = useTranslation();
  const {
    definition,
    columns,
    records,
    recordId,
    editPath,
    isArchived,
    canArchive,
    canClone,
    isFetching,
    bulkActions,
    selection,
  } = useResourceListContext();
  const hasActions = canArchive || canClone;
  const selectable = bulkActions.length > 0;
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
            {selectable && (
              <Table.Th className="sy-list-select">
                <Checkbox
                  aria-label={t('resources:list.selectAll')}
                  checked={selection.allChosen}
                  indeterminate={!selection.allChosen && selection.selected.length > 0}
                  onChange={selection.toggleAll}
                />
              </Table.Th>
            )}
            {columns.map((column) => (
              <SortableHeader key={column.accessor} accessor={column.accessor} figure={column.figure}>
                {t(column.label)}
              </SortableHeader>
            ))}
            {hasActions && <Table.Th className="sy-list-actions">{t('resources:list.actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record: ListRecord) => {
            const archived = isArchived(record);
            const id = String(recordId(record));
            return (
              <Table.Tr key={id} data-archived={archived || undefined}>
                {selectable && (
                  <Table.Td className="sy-list-select">
                    <Checkbox
                      aria-label={t('resources:list.selectRow', { name: recordName(definition, record) || id })}
                      checked={selection.isSelected(id)}
                      onChange={() => selection.toggle(id)}
                    />
                  </Table.Td>
                )}
                {columns.map((column, index) => {
                  const content = column.render ? column.render(record) : cellValue(record[column.accessor]);
                  if (column.figure) {
                    return (
                      <FigureCell key={column.accessor} dimmed={archived}>
                        {content}
                      </FigureCell>
                    );
                  }
                  return (
                    <Table.Td
                      key={column.accessor}
                      opacity={archived ? 0.55 : undefined}
                      className={index === linkIndex ? 'sy-list-name' : 'sy-list-cell'}
                    >
                      {index === linkIndex ? (
                        <Group gap="xs" wrap="nowrap">
                          <RecordLink to={editPath(record)} content={content} />
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
