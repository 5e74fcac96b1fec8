// A campaign's cost set after the fact. `POST /api/tracker/campaigns/{external_id}/costs` sets
// the total cost of the campaign's clicks over a range of days (optionally of one parameter value) to
// `amount`, spread evenly over those clicks; the dashboard's dialog and the CSV import use this schema.
import { z } from 'zod';
import { isTimeZone } from './reports.js';

/** The click columns a cost update may narrow to. */
export const COST_FILTER_KEYS = [
  'var1',
  'var2',
  'var3',
  'var4',
  'var5',
  'var6',
  'var7',
  'var8',
  'var9',
  'var10',
  'subaff',
  'country',
] as const;
export type CostFilterKey = (typeof COST_FILTER_KEYS)[number];

/** Largest amount a cost update accepts. */
export const MAX_COST_AMOUNT = 1e9;

/** Lines at most in one CSV cost import (100,000 answer within seconds). */
export const MAX_COST_IMPORT_LINES = 100_000;

/** Columns of a CSV cost import line. */
export const COST_IMPORT_COLUMNS = ['date', 'campaign', 'var_name', 'var_value', 'amount'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const ZDay = z.string({ error: 'Use a date as YYYY-MM-DD.' }).trim().refine(isDay, 'Use a date as YYYY-MM-DD.');

export const ZCostUpdate = z
  .object({
    start: ZDay,
    end: ZDay,
    timezone: z
      .string({ error: 'Use an IANA timezone.' })
      .trim()
      .default('UTC')
      .refine(isTimeZone, 'Use an IANA timezone.'),
    amount: z
      .number({ error: 'Enter an amount.' })
      .finite('Enter an amount.')
      .min(0, 'The amount cannot be negative.')
      .max(MAX_COST_AMOUNT, 'At most 1,000,000,000.'),
    filter: z
      .record(z.string(), z.string().trim().max(255))
      .default({})
      .superRefine((entries, context) => {
        const keys = Object.keys(entries);
        for (const key of keys) {
          if (!(COST_FILTER_KEYS as readonly string[]).includes(key)) {
            context.addIssue({
              code: 'custom',
              message: `Cannot filter on ${key}; use ${COST_FILTER_KEYS.join(', ')}.`,
            });
          }
        }
        if (keys.length > 3) context.addIssue({ code: 'custom', message: 'At most 3 parameters.' });
      })
      .transform((entries) => entries as Partial<Record<CostFilterKey, string>>),
  })
  .superRefine((input, context) => {
    if (input.start > input.end) {
      context.addIssue({ code: 'custom', path: ['end'], message: 'The range ends before it starts.' });
    }
  });
export type TCostUpdate = z.infer<typeof ZCostUpdate>;
export type TCostUpdateInput = z.input<typeof ZCostUpdate>;
