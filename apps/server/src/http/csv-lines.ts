// Every CSV the product reads (conversion and cost imports) is read by csv-parse, as
// a spreadsheet writes it: quoted fields may hold the delimiter, quotes (doubled) and line breaks. A line
// that cannot be read is reported with its line and column, and reading goes on at the next line.
import { CsvError, parse } from 'csv-parse/sync';
import { ValidationError } from '../errors.js';

export interface CsvLine {
  /** The line the record starts on, counted from 1 in the text sent. */
  line: number;
  /** The record as sent, for the answer (cut to 500 characters). */
  text: string;
  cells: string[];
}

export interface CsvProblem {
  line: number;
  /** The field, counted from 1. */
  column: number;
  message: string;
}

/** Past this many unreadable lines the text is not a CSV of this kind: reading stops there. */
const MAX_PROBLEMS = 1000;
const DELIMITERS = [',', ';', '\t'] as const;

/** The delimiter the first line uses most (`;` where a comma is the decimal sign, tab from a sheet). */
function delimiterOf(text: string): string {
  const first = /^\s*([^\r\n]*)/.exec(text)?.[1] ?? '';
  let best: string = ',';
  let most = 0;
  for (const delimiter of DELIMITERS) {
    const count = first.split(delimiter).length - 1;
    if (count > most) [best, most] = [delimiter, count];
  }
  return best;
}

/** Where each line starts in `text` (index 0 is line 1). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * The records of `text`, trimmed cells, empty lines skipped; `isHeader` tells whether the first record
 * is a header, left out. Lines that cannot be read are in `problems`, each with its line and column.
 */
export function readCsvLines(
  text: string,
  isHeader: (cells: string[]) => boolean,
): { lines: CsvLine[]; problems: CsvProblem[] } {
  const delimiter = delimiterOf(text);
  const starts = lineStarts(text);
  /** Lines `first` to `last` as sent, without their line breaks at the end. */
  const sent = (first: number, last: number) =>
    text.slice(starts[first - 1], last < starts.length ? starts[last]! - 1 : text.length).replace(/\r$/, '');
  const lines: CsvLine[] = [];
  const problems: CsvProblem[] = [];
  // After an unreadable line, reading starts again on the next one (csv-parse stops at an error).
  for (let from = 1; from <= starts.length && problems.length < MAX_PROBLEMS; ) {
    const offset = from - 1;
    try {
      parse(text.slice(starts[offset]), {
        delimiter,
        bom: from === 1,
        trim: true,
        skip_empty_lines: true,
        relax_column_count: true,
        relax_quotes: true,
        on_record: (record, context) => {
          // The line a record ends on, less the line breaks inside its quoted cells, is where it starts.
          const last = offset + context.lines;
          let breaks = 0;
          for (const cell of record)
            for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) breaks += 1;
          const line = last - breaks;
          if (lines.length === 0 && problems.length === 0 && isHeader(record)) return null;
          lines.push({ line, text: sent(line, last).trim().slice(0, 500), cells: record });
          return null;
        },
      });
      break;
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      const line = offset + ((error as CsvError & { lines?: number }).lines ?? 1);
      const column = ((error as CsvError & { column?: number }).column ?? 0) + 1;
      problems.push({ line, column, message: error.message.replace(/ at line \d+/, '') });
      from = Math.max(line, from) + 1;
    }
  }
  return { lines, problems };
}

/** What refuses an import with unreadable lines: each named by its line and column, on the `text` field. */
export function csvProblemsError(problems: readonly CsvProblem[]): ValidationError {
  return new ValidationError({
    text: problems.map((problem) => `Line ${problem.line}, column ${problem.column}: ${problem.message}`),
  });
}
