import { BULK_INSERT_MIN_CHUNKS } from '../constants.js';

/** §4: the separators a pasted list may use; on a tie the earlier one wins (space last: it pads the others). */
const SEPARATORS = ['\n', ',', ';', ':', ' '] as const;

/**
 * §4, §5.5 bulk insert: the chunks of a pasted text split by its dominant separator, or null when it is
 * fewer than `threshold` chunks (a single value).
 */
export function splitBulkInsert(text: string, threshold = BULK_INSERT_MIN_CHUNKS): string[] | null {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  let dominant: string | null = null;
  let most = 0;
  for (const separator of SEPARATORS) {
    const count = normalized.split(separator).length - 1;
    if (count > most) {
      most = count;
      dominant = separator;
    }
  }
  if (!dominant) return null;
  const chunks = normalized
    .split(dominant)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '');
  return chunks.length >= threshold ? chunks : null;
}

/** §5.3: non-numeric input is blanked, numbers are parsed as integers. */
export function parseCompareValue(input: string | number): number | '' {
  const text = String(input).trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(text)) return '';
  return Math.trunc(Number(text));
}
