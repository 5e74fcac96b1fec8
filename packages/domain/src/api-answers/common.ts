// The answers of the API as zod schemas, so that /api/openapi.json describes them from the same
// source as the types the server builds them with. Shared pieces: times, lists, the error body.
import { z } from 'zod';
import { RECORD_STATUSES } from '../list-query.js';

/** A time as the server writes it: ISO-8601 in UTC (`Date#toISOString`). */
export const ZTimestamp = z.iso.datetime();

export const ZRecordStatusAnswer = z.enum(RECORD_STATUSES);

/** Ids of stored rows: PostgreSQL `integer`s, never zero. */
export const ZStoredId = z.number().int().positive();

/** `{ list, total }`: a page of `item`s and how many there are in all. */
export function listAnswer<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int().min(0) });
}

/** One active record using another. */
export const ZRecordUser = z.object({ kind: z.string(), external_id: z.string(), name: z.string() });

/**
 * The body of every 4xx and 5xx answer: a message, per field messages for a 400, and
 * for a 409 refusing to archive a record still in use, the records that use it.
 */
export const ZApiErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  used_by: z.array(ZRecordUser).optional(),
});
export type ApiErrorBody = z.infer<typeof ZApiErrorBody>;

/** `{ message }`: what a public account step answers (the same whoever asks, so it tells nothing). */
export const ZMessageAnswer = z.object({ message: z.string() });

/** `POST /api/logout`. */
export const ZOkAnswer = z.object({ ok: z.literal(true) });

/** `GET /api/openapi.json`: the OpenAPI 3.1 document of the API (its operations are open-ended). */
export const ZOpenApiDocumentAnswer = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()) }))),
});
