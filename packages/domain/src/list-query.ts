import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';
import { LIST_STATS_FIGURES } from './list-stats.js';

export const RECORD_STATUSES = ['active', 'archived'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
export const STATUS_FILTERS = ['active', 'archived', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_FIELDS = ['name', 'created_at', 'updated_at'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;
/** A list sorts by a column, or with `?stats=<period>` by one of its figures (list-stats.ts). */
export const LIST_ORDER_FIELDS = [...SORT_FIELDS, ...LIST_STATS_FIGURES] as const;
export type ListOrderField = (typeof LIST_ORDER_FIELDS)[number];

/** `GET /api/<resource>` query: `limit=0` means every record. */
export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
  limit: z.coerce.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  status: z.enum(STATUS_FILTERS).default('active'),
  search: z.string().trim().max(200).default(''),
  order_by: z.enum(LIST_ORDER_FIELDS).optional(),
  order: z.enum(SORT_ORDERS).default('asc'),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export interface ListResponse<T> {
  list: T[];
  total: number;
}
