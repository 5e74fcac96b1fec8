import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RepeaterRow } from './RepeaterRow';
import { useDragAccessibility } from './useDragAccessibility';
import { type RepeaterRowsOptions, useRepeaterRows } from './useRepeaterRows';

export interface RepeaterProps<Row> extends RepeaterRowsOptions<Row> {
  /** The fields of one row; `update` replaces that row. */
  renderRow: (row: Row, index: number, update: (row: Row) => void) => ReactNode;
  /**
   * Optional: what goes under the row's first line (`renderRow` beside the handle and the buttons), across
   * the whole row, so rows nested inside it keep the width instead of losing the side columns at each level.
   */
  renderBody?: (row: Row, index: number, update: (row: Row) => void) => ReactNode;
  /** The test id of each row (its whole box), for tests that look inside one row. */
  rowTestId?: string;
  /** Accessible name of the list of rows. */
  label?: string;
  /** Text of the Add button; default "Add". */
  addLabel?: string;
  /** Shown when there are no rows; default "No rows yet." */
  emptyText?: string;
  /** Hides the Add button (it also disappears at `maxRows`). */
  hideAdd?: boolean;
  /** Shown beside the Add button, e.g. why it is gone. */
  footer?: ReactNode;
  disabled?: boolean;
  sortable?: boolean;
  removable?: boolean;
  duplicable?: boolean;
  /** The Add button's test id, for browser tests. */
  addTestId?: string;
}

// Rows move up and down only; this also keeps a drag from sliding sideways in RTL.
const restrictToVerticalAxis: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/**
 * Rows that can be added, deleted, duplicated and dragged by their handle to reorder (§2.8, §4), with the
 * keyboard as well as the pointer. Controlled: `rows` in, `onChange(rows)` out.
 */
export function Repeater<Row>({
  renderRow,
  renderBody,
  rowTestId,
  label,
  addLabel,
  emptyText,
  hideAdd = false,
  footer,
  disabled = false,
  sortable = true,
  removable = true,
  duplicable = true,
  addTestId,
  ...options
}: RepeaterProps<Row>) {
  const { t } = useTranslation();
  const controller = useRepeaterRows(options);
  const { keys } = controller;
  const accessibility = useDragAccessibility(keys);
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const canSort = sortable && !disabled && options.rows.length > 1;
  const showAdd = !hideAdd && !disabled && controller.canAdd;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const from = keys.indexOf(String(active.id));
    const to = keys.indexOf(String(over.id));
    if (from >= 0 && to >= 0) controller.move(from, to);
  };

  return (
    <Stack gap="xs">
      {options.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {emptyText ?? t('controls:repeaters.empty')}
        </Text>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          modifiers={[restrictToVerticalAxis]}
          onDragEnd={onDragEnd}
          accessibility={accessibility}
        >
          <SortableContext items={keys} strategy={verticalListSortingStrategy} disabled={!canSort}>
            <Stack gap="xs" role="list" aria-label={label}>
              {options.rows.map((row, index) => (
                <RepeaterRow
                  key={keys[index]}
                  rowKey={keys[index] ?? String(index)}
                  position={index + 1}
                  sortable={canSort}
                  testId={rowTestId}
                  body={renderBody?.(row, index, (next) => controller.update(index, next))}
                  onDelete={removable && !disabled ? () => controller.remove(index) : undefined}
                  onDuplicate={
                    duplicable && !disabled && controller.canAdd ? () => controller.duplicate(index) : undefined
                  }
                >
                  {renderRow(row, index, (next) => controller.update(index, next))}
                </RepeaterRow>
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
      )}
      {(showAdd || footer) && (
        <Group gap="sm">
          {showAdd && (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={controller.add}
              data-testid={addTestId}
            >
              {addLabel ?? t('controls:repeaters.add')}
            </Button>
          )}
          {footer}
        </Group>
      )}
    </Stack>
  );
}
