import type { ReactNode } from 'react';

/** One column of a list screen; a screen is a list of these plus the generic `ResourceList`. */
export interface ListColumn<TRecord = Record<string, unknown>> {
  /** The record field shown; `name`, `created_at` and `updated_at` make the header sortable. */
  accessor: string;
  /** i18n key of the header, e.g. `resources:users.fields.email`. */
  label: string;
  /** Custom cell content; the raw field value otherwise. */
  render?: (record: TRecord) => ReactNode;
  /** The cell links to the record's edit screen. When no column says so, the first one does. */
  link?: boolean;
  /** A figure: at the end of its cell, in figures of one width. */
  figure?: boolean;
}
