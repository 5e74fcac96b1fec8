import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { browserTimeZone } from './dateRanges';
import { parseReportParams, type ReportParams, reportSearchParams } from './reportParams';

/**
 * The reports screen's state in the URL (`?group_by=offer&range=last30&filters={"campaign":"…"}`), so a
 * report can be bookmarked, shared and returned to with the back button. A change other than the page
 * goes back to page 1.
 */
export function useReportParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const defaultTimezone = useMemo(browserTimeZone, []);
  const params = useMemo(() => parseReportParams(searchParams, defaultTimezone), [searchParams, defaultTimezone]);

  const update = useCallback(
    (changes: Partial<ReportParams>, options?: { replace?: boolean }) => {
      setSearchParams(
        (previous) => {
          const next = { ...parseReportParams(previous, defaultTimezone), ...changes };
          if (changes.page === undefined) next.page = 1;
          return reportSearchParams(next, defaultTimezone);
        },
        { replace: options?.replace },
      );
    },
    [setSearchParams, defaultTimezone],
  );

  /** Issue 20: a saved view's query in place of the whole state (and of `?view=`), read as a link would be. */
  const load = useCallback(
    (query: string, options?: { replace?: boolean }) =>
      setSearchParams(
        reportSearchParams(parseReportParams(new URLSearchParams(query), defaultTimezone), defaultTimezone),
        {
          replace: options?.replace,
        },
      ),
    [setSearchParams, defaultTimezone],
  );

  return { params, update, load };
}
