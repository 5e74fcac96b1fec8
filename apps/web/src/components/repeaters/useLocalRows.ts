import { useState } from 'react';

const serialize = (value: unknown, context: unknown) => JSON.stringify([value ?? null, context ?? null]);

/**
 * Rows edited locally for a value that cannot hold them all (an object cannot hold two empty keys):
 * every change stores `fromRows(rows)`, and the rows are rebuilt with `toRows` only when the value
 * changes from outside (a record loaded, a reset) or `context` changes (what `toRows` reads besides the
 * value, e.g. defaults that finished loading).
 */
export function useLocalRows<Row, Value>(
  value: unknown,
  onChange: (value: Value) => void,
  toRows: (value: unknown) => Row[],
  fromRows: (rows: readonly Row[]) => Value,
  context?: unknown,
): [Row[], (rows: Row[]) => void] {
  const [rows, setRows] = useState(() => toRows(value));
  const [known, setKnown] = useState(() => serialize(value, context));
  const incoming = serialize(value, context);
  let current = rows;
  if (incoming !== known) {
    current = toRows(value);
    setKnown(incoming);
    setRows(current);
  }

  const change = (next: Row[]) => {
    const stored = fromRows(next);
    setRows(next);
    setKnown(serialize(stored, context));
    onChange(stored);
  };
  return [current, change];
}
