import { REPORT_METRICS, type ReportGroup, type ReportMetric, type ReportRow } from '@switchyard/domain';

// CSV as RFC 4180 writes it (comma-separated, CRLF lines, fields quoted when they hold a comma, a quote or a
// line break, quotes doubled), made in the browser from the report's rows.

export type CsvCell = string | number | null | undefined;

export interface CsvColumn<TRow> {
  header: string;
  value: (row: TRow) => CsvCell;
}

/** Text a spreadsheet would run as a formula (a campaign named `=HYPERLINK(…)`); numbers are left alone. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<TRow>(columns: readonly CsvColumn<TRow>[], rows: readonly TRow[]): string {
  const lines = [columns.map((column) => csvField(column.header))];
  for (const row of rows) lines.push(columns.map((column) => csvField(column.value(row))));
  return `${lines.map((line) => line.join(',')).join('\r\n')}\r\n`;
}

/** The texts of a report's CSV, in the reader's language. */
export interface ReportCsvTexts {
  group: (group: ReportGroup) => string;
  /** The header of a group's raw value (an id) when it differs from the label. */
  groupValue: (group: ReportGroup) => string;
  metric: (metric: ReportMetric) => string;
  /** The label of the rows without a value. */
  none: string;
  /** A row's label for a group as the table shows it ("Bot" for `true`); the server's label when left out. */
  label?: (group: ReportGroup, value: unknown, label: unknown) => string;
  /** The figures to write, in order; every one when left out (no money without its permission). */
  metrics?: readonly ReportMetric[];
  /** The custom metrics to write after them, headed by their names. */
  custom?: readonly { key: string; name: string }[];
}

/**
 * A report as CSV: each group's label, its raw value too where that says something more (an external id
 * rather than the name), then each figure the reader sees unformatted (a dot for decimals, no grouping, no
 * currency).
 */
export function reportCsv(groups: readonly ReportGroup[], rows: readonly ReportRow[], texts: ReportCsvTexts): string {
  const columns: CsvColumn<ReportRow>[] = [];
  for (const group of groups) {
    columns.push({
      header: texts.group(group),
      value: (row) =>
        row[group] === null
          ? texts.none
          : texts.label
            ? texts.label(group, row[group], row[`${group}_name`])
            : text(row[`${group}_name`]),
    });
    const differs = rows.some((row) => row[group] !== null && text(row[group]) !== text(row[`${group}_name`]));
    if (differs) columns.push({ header: texts.groupValue(group), value: (row) => text(row[group]) });
  }
  for (const metric of texts.metrics ?? REPORT_METRICS)
    columns.push({ header: texts.metric(metric), value: (row) => row[metric] });
  for (const metric of texts.custom ?? []) {
    columns.push({
      header: metric.name,
      value: (row) => (typeof row[metric.key] === 'number' ? row[metric.key] : null),
    });
  }
  return toCsv(columns, rows);
}

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
