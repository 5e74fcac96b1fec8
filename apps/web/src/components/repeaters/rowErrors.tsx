import type { ReactNode } from 'react';

/** Where a message inside the value shows: a displayed row and its input ('' for a row's only input). */
export interface ErrorSpot {
  row: number;
  field: string;
}

export interface RowErrors {
  /** The message under a displayed row's input, if any. */
  at: (row: number, field?: string) => string | undefined;
  /** The element's error: its own, then the messages no input shows; never one a row already shows. */
  error: ReactNode;
}

/** `0.ts_parameter` → `{ index: 0, field: 'ts_parameter' }`; `2` → `{ index: 2, field: '' }`. */
export function indexPath(path: string): { index: number; field: string } | undefined {
  const match = /^(\d+)(?:\.(.+))?$/.exec(path);
  return match ? { index: Number(match[1]), field: match[2] ?? '' } : undefined;
}

/**
 * For repeaters whose rows are the stored array as it is (no rows dropped): `2.name` is the third row's
 * `name` input, when that row exists and shows that field.
 */
export function locateInRows(rowCount: number, fields: readonly string[]) {
  return (path: string): ErrorSpot | undefined => {
    const spot = indexPath(path);
    return spot && spot.index < rowCount && fields.includes(spot.field)
      ? { row: spot.index, field: spot.field }
      : undefined;
  };
}

/**
 * Spreads a repeater's `fieldErrors` (keyed by the path inside the stored value) over its displayed rows:
 * `locate` maps a stored path to the row and input that shows it, or undefined when no input does.
 */
export function rowErrors(
  error: ReactNode,
  fieldErrors: Record<string, string> | undefined,
  locate: (path: string) => ErrorSpot | undefined,
): RowErrors {
  const placed = new Map<string, string>();
  const rest: string[] = [];
  for (const [path, message] of Object.entries(fieldErrors ?? {})) {
    const spot = locate(path);
    if (spot) {
      const key = `${spot.row}:${spot.field}`;
      if (!placed.has(key)) placed.set(key, message);
    } else if (!rest.includes(message)) {
      rest.push(message);
    }
  }
  const summary = rest.join(' ');
  return {
    at: (row, field = '') => placed.get(`${row}:${field}`),
    error:
      error && summary ? (
        <>
          {error} {summary}
        </>
      ) : (
        error || summary || undefined
      ),
  };
}
