import { useSortable } from '@dnd-kit/sortable';
import { ActionIcon, Group, Paper } from '@mantine/core';
import { DRAG_ANIMATION_MS } from '@switchyard/domain';
import { IconCopy, IconGripVertical, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface RepeaterRowProps {
  rowKey: string;
  /** 1-based, as the labels say it. */
  position: number;
  sortable: boolean;
  onDelete?: () => void;
  onDuplicate?: () => void;
  /** The row's first line, between the handle and the buttons. */
  children: ReactNode;
  /** Under the first line, across the whole row (handle and buttons columns included). */
  body?: ReactNode;
  testId?: string;
}

/**
 * One row: drag handle, the row's fields, then Duplicate and Delete, each labelled with the row's position;
 * then, when given, the row's body across the whole row.
 */
export function RepeaterRow({
  rowKey,
  position,
  sortable,
  onDelete,
  onDuplicate,
  children,
  body,
  testId,
}: RepeaterRowProps) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: rowKey,
    disabled: !sortable,
    transition: { duration: DRAG_ANIMATION_MS, easing: 'ease' },
    attributes: { roleDescription: t('controls:repeaters.sortable') },
  });
  // Rows only move up and down, so the horizontal offset is dropped and the row mirrors nothing in RTL.
  const style = {
    transform: transform ? `translate3d(0, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
    position: 'relative' as const,
    zIndex: isDragging ? 1 : undefined,
  };

  return (
    <Paper
      ref={setNodeRef}
      style={style}
      role="listitem"
      withBorder
      p="xs"
      shadow={isDragging ? 'md' : undefined}
      data-testid={testId}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {sortable && (
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            mt={4}
            style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
            aria-label={t('controls:repeaters.moveRow', { position })}
          >
            <IconGripVertical size={16} aria-hidden />
          </ActionIcon>
        )}
        <div style={{ flex: 1, minInlineSize: 0 }}>{children}</div>
        {(onDuplicate || onDelete) && (
          <Group gap={4} wrap="nowrap" mt={4}>
            {onDuplicate && (
              <ActionIcon
                variant="subtle"
                color="gray"
                onClick={onDuplicate}
                aria-label={t('controls:repeaters.duplicateRow', { position })}
              >
                <IconCopy size={16} aria-hidden />
              </ActionIcon>
            )}
            {onDelete && (
              <ActionIcon
                variant="subtle"
                color="red"
                onClick={onDelete}
                aria-label={t('controls:repeaters.deleteRow', { position })}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            )}
          </Group>
        )}
      </Group>
      {body !== undefined && body !== null && body !== false && (
        <div style={{ marginBlockStart: 'var(--mantine-spacing-xs)', minInlineSize: 0 }}>{body}</div>
      )}
    </Paper>
  );
}
