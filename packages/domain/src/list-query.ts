import { z } from 'zod';
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants.js';

export const RECORD_STATUSES = ['active', 'archived'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
export const STATUS_FILTERS = ['active', 'archived', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_FIELDS = ['name', 'created_at', 'updated_at'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** `GET /api/<resource>` query (ARCHITECTURE.md): `limit=0` means every record. */
export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
  limit: z.coerce.number().int().min(0).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  status: z.enum(STATUS_FILTERS).default('active'),
  search: z.string().trim().max(200).default(''),
  order_by: z.enum(SORT_FIELDS).optional(),
  order: z.enum(SORT_ORDERS).default('asc'),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export interface ListResponse<T> {
  list: T[];
  total: number;
}
