// Answers of the routes that act on many things at once — cost updates and imports,
// conversion imports, currency rates, reference data, the test postback and what uses a record.
import { z } from 'zod';
import { CONVERSION_STATES } from '../conversions.js';
import { POSTBACK_OUTCOMES } from '../postback-log.js';
import { ZRecordStatusAnswer, ZRecordUser, ZTimestamp } from './common.js';

/** `POST /api/tracker/campaigns/{id}/costs`: how many clicks the cost was spread over. */
export const ZCostUpdateAnswer = z.object({ clicks: z.number().int().min(0) });

/** One line of a CSV cost import, as answered. */
export const ZCostImportLine = z.object({
  line: z.number().int().positive(),
  text: z.string(),
  status: z.number().int(),
  clicks: z.number().int().min(0),
  message: z.string().nullable(),
  /** The column (from 1) of the field the message is about, when it is about one. */
  column: z.number().int().positive().nullable(),
});
export type CostImportLine = z.infer<typeof ZCostImportLine>;

export const ZCostImportResponse = z.object({
  lines: z.array(ZCostImportLine),
  updated: z.number().int().min(0),
  refused: z.number().int().min(0),
});
export type CostImportResponse = z.infer<typeof ZCostImportResponse>;

/** One line of a conversion import: what its postback would have been answered. */
export const ZImportedLine = z.object({
  line: z.number().int().positive(),
  text: z.string(),
  outcome: z.enum(POSTBACK_OUTCOMES),
  status: z.number().int(),
  message: z.string().nullable(),
  conversion_id: z.string().nullable(),
  state: z.enum(CONVERSION_STATES).nullable(),
});
export type ImportedLine = z.infer<typeof ZImportedLine>;

/** `POST /api/conversions/import`. */
export const ZConversionImportAnswer = z.object({
  lines: z.array(ZImportedLine),
  counted: z.number().int().min(0),
  refused: z.number().int().min(0),
});

/** `GET` and `PUT /api/currency-rates`: units of each currency one US dollar buys. */
export const ZCurrencyRatesAnswer = z.object({
  base: z.literal('USD'),
  /** The date of the rates the server shipped with. */
  snapshot_date: z.iso.date(),
  list: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      rate: z.number().positive(),
      /** `admin` once an administrator set it; else where the shipped rate came from. */
      source: z.string(),
      // A shipped rate is as of its snapshot's day; one an administrator set, as of that moment.
      updated_at: z.union([ZTimestamp, z.iso.date()]),
    }),
  ),
});

/** `GET /api/currency`: ISO 4217 codes and names, for select controls. */
export const ZCurrencyList = z.array(z.object({ Code: z.string(), Name: z.string() }));

/** `GET /api/default-email-weights`. */
export const ZEmailWeightList = z.array(z.object({ key: z.string(), name: z.string(), weight: z.number() }));

/** `GET /api/timezone/locations`: the time zones of the tz database, grouped as @vvo/tzdb groups them. */
export const ZTimeZoneList = z.array(
  z.object({
    name: z.string(),
    alternativeName: z.string(),
    group: z.array(z.string()),
    continentCode: z.string(),
    continentName: z.string(),
    countryName: z.string(),
    countryCode: z.string(),
    mainCities: z.array(z.string()),
    rawOffsetInMinutes: z.number(),
    abbreviation: z.string(),
    dstAbbreviation: z.string().optional(),
    rawFormat: z.string(),
    currentTimeOffsetInMinutes: z.number(),
    currentTimeFormat: z.string(),
    currentAbbreviation: z.string(),
  }),
);

/** `POST /api/traffic-sources/test-postback`: the request sent and what the traffic source answered. */
export const ZTestPostbackAnswer = z.object({
  request: z.object({ method: z.literal('GET'), url: z.string() }),
  response: z
    .object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() })
    .nullable(),
  /** No answer: a network error or the timeout. */
  error: z.string().nullable(),
  duration_ms: z.number().min(0),
});
export type TestPostbackAnswer = z.infer<typeof ZTestPostbackAnswer>;

/** `GET /api/{resource}/{id}/usage`: the active records that use this one. */
export const ZRecordUsage = z.object({ used_by: z.array(ZRecordUser) });

/**
 * `POST /api/history/{entry}/restore`: the record as put back. Entries are of any config resource, so
 * only the fields every config record has are named.
 */
export const ZRestoredRecord = z.looseObject({
  external_id: z.string(),
  status: ZRecordStatusAnswer,
  created_at: ZTimestamp,
  updated_at: ZTimestamp,
});

/** A backup of the SQLite database kept in the data directory's `backups`. */
export const ZBackup = z.object({
  name: z.string(),
  bytes: z.number().int().min(0),
  created_at: ZTimestamp,
});
export type Backup = z.infer<typeof ZBackup>;

/** `POST /api/backups`: the backup made, and the answered events it took from the journal. */
export const ZBackupMade = ZBackup.extend({
  journal_events: z.number().int().min(0),
  added_from_journal: z.number().int().min(0),
});

export const ZBackupList = z.object({ list: z.array(ZBackup), total: z.number().int().min(0) });

/** `POST /api/tracker/campaigns/{id}/click-token`: a direct campaign's new click token, shown this once. */
export const ZClickTokenAnswer = z.object({ token: z.string(), created_at: ZTimestamp });
export type ClickTokenAnswer = z.infer<typeof ZClickTokenAnswer>;
