import { arrayMove } from '@dnd-kit/sortable';
import { useState } from 'react';

let lastRowKey = 0;
/** A key for a row's lifetime in the editor; never derived from the row's index or content. */
export function newRowKey(): string {
  lastRowKey += 1;
  return `row-${lastRowKey}`;
}

export interface RepeaterRowsOptions<Row> {
  rows: readonly Row[];
  onChange: (rows: Row[]) => void;
  /** The row that Add appends. */
  createRow: () => Row;
  /** The copy that Duplicate appends; default: a deep copy. */
  duplicateRow?: (row: Row) => Row;
  /** Applied after every change, e.g. renumbering by position. */
  normalize?: (rows: Row[]) => Row[];
  maxRows?: number;
}

/**
 * Headless row list of a repeater: a stable key per row (kept beside the rows, so the value itself stays
 * exactly the domain's shape) and the row operations of §4: add, delete, duplicate (the copy goes last,
 * as §4 does for path groups), move and update.
 */
export function useRepeaterRows<Row>({
  rows,
  onChange,
  createRow,
  duplicateRow = structuredClone,
  normalize = (next) => next,
  maxRows = Number.POSITIVE_INFINITY,
}: RepeaterRowsOptions<Row>) {
  const [keys, setKeys] = useState<string[]>(() => rows.map(newRowKey));
  // Rows replaced from outside (a record loaded, a reset) keep the keys they can and get new ones for the rest.
  let current = keys;
  if (keys.length !== rows.length) {
    current = rows.map((_, index) => keys[index] ?? newRowKey());
    setKeys(current);
  }

  const commit = (nextRows: Row[], nextKeys: string[]) => {
    setKeys(nextKeys);
    onChange(normalize(nextRows));
  };
  const canAdd = rows.length < maxRows;

  return {
    keys: current,
    canAdd,
    add: () => {
      if (canAdd) commit([...rows, createRow()], [...current, newRowKey()]);
    },
    remove: (index: number) =>
      commit(
        rows.filter((_, at) => at !== index),
        current.filter((_, at) => at !== index),
      ),
    duplicate: (index: number) => {
      const row = rows[index];
      if (row !== undefined && canAdd) commit([...rows, duplicateRow(row)], [...current, newRowKey()]);
    },
    move: (from: number, to: number) => {
      if (from !== to) commit(arrayMove([...rows], from, to), arrayMove(current, from, to));
    },
    update: (index: number, row: Row) => commit(rows.with(index, row), current),
  };
}

export type RepeaterRowsController<Row> = ReturnType<typeof useRepeaterRows<Row>>;
