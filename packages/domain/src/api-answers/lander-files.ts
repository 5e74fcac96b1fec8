// A tracker lander's hosted files (`/api/tracker/landers/{id}/files`).
import { z } from 'zod';
import { ZTimestamp } from './common.js';

/** One stored file of a hosted lander. */
export const ZLanderFile = z.object({
  path: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** Whether the dashboard's editor may change it (HTML, CSS, JS, JSON, SVG, text). */
  editable: z.boolean(),
  updated_at: ZTimestamp,
});
export type LanderFile = z.infer<typeof ZLanderFile>;

/** `GET` and `POST /api/tracker/landers/{id}/files`: every file, and where the lander is served. */
export const ZLanderFileList = z.object({
  list: z.array(ZLanderFile),
  total: z.number().int(),
  /** The path the lander is served at on the tracking domains (`/l/{id}/`), null while it has no files. */
  served_at: z.string().nullable(),
});
export type LanderFileList = z.infer<typeof ZLanderFileList>;

/** `PUT /api/tracker/landers/{id}/files`: one text file's new content. */
export const ZLanderFileEdit = z.object({
  path: z.string().min(1).max(512),
  content: z.string(),
});
export type TLanderFileEdit = z.infer<typeof ZLanderFileEdit>;

/** `GET /api/tracker/landers/{id}/files/content?path=`: one text file with its content. */
export const ZLanderFileContent = ZLanderFile.extend({ content: z.string() });
export type LanderFileContent = z.infer<typeof ZLanderFileContent>;

export const ZLanderFileQuery = z.object({ path: z.string().min(1).max(512) });
