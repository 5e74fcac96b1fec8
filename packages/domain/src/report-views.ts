// Saved report views. A view is the reports screen's state as its URL query string
// (`group_by=offer&range=lastMonth&attribution=postback&timezone=Europe%2FParis`) under a name, kept per
// user and per workspace, and opened by its link (`/tracker/reports?view=12`) by anyone of the workspace
// who reads reports.

import { z } from 'zod';

export const REPORT_VIEW_NAME_MAX = 255;
/** A query string is short; this bounds what one row of the table holds. */
export const REPORT_VIEW_PARAMS_MAX = 4000;
/** At most this many views per user in a workspace (each is a line of the Views menu). */
export const REPORT_VIEWS_MAX = 100;

/** The query parameters of the reports screen a view keeps; the page and the view itself are not kept. */
export const REPORT_VIEW_PARAM_KEYS = [
  'group_by',
  'range',
  'from',
  'to',
  'timezone',
  'search',
  'filters',
  'filter_labels',
  'vars',
  'attribution',
  'order_by',
  'order',
] as const;

/** `params`: a URL query string (a leading `?` is dropped) naming only the screen's parameters, once each. */
export const ZReportViewParams = z
  .string()
  .trim()
  .max(REPORT_VIEW_PARAMS_MAX, `Use at most ${REPORT_VIEW_PARAMS_MAX} characters.`)
  .transform((text) => (text.startsWith('?') ? text.slice(1) : text))
  .superRefine((text, context) => {
    const keys = [...new URLSearchParams(text).keys()];
    const unknown = [...new Set(keys.filter((key) => !(REPORT_VIEW_PARAM_KEYS as readonly string[]).includes(key)))];
    if (unknown.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `A view cannot keep ${unknown.join(', ')}; use ${REPORT_VIEW_PARAM_KEYS.join(', ')}.`,
      });
    }
    if (new Set(keys).size !== keys.length) {
      context.addIssue({ code: 'custom', message: 'A parameter is named twice.' });
    }
  });

/** The form of `POST` and `PUT /api/report-views`. */
export const ZReportViewForm = z.object({
  name: z
    .string({ error: 'Enter a name.' })
    .trim()
    .min(1, 'Enter a name.')
    .max(REPORT_VIEW_NAME_MAX, `Use at most ${REPORT_VIEW_NAME_MAX} characters.`),
  params: ZReportViewParams.default(''),
});
export type TReportViewForm = z.infer<typeof ZReportViewForm>;
