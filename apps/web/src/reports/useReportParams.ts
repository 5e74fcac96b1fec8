import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { browserTimeZone } from '../shared/reporting/dateRanges';
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

  // React Router hands a functional update the params of the last render: two changes before the next
  // render (two quick clicks on a slow machine) would each start from the same state, and the second
  // would undo the first. The params last set stand in for the render until it shows them.
  const lastSet = useRef<{ from: string; to: URLSearchParams } | null>(null);
  const update = useCallback(
    (
      changes: Partial<ReportParams> | ((previous: ReportParams) => Partial<ReportParams>),
      options?: { replace?: boolean },
    ) => {
      const rendered = searchParams.toString();
      const base = lastSet.current?.from === rendered ? lastSet.current.to : searchParams;
      const previous = parseReportParams(base, defaultTimezone);
      const change = typeof changes === 'function' ? changes(previous) : changes;
      const next = { ...previous, ...change };
      if (change.page === undefined) next.page = 1;
      const to = reportSearchParams(next, defaultTimezone);
      lastSet.current = { from: rendered, to };
      setSearchParams(to, { replace: options?.replace });
    },
    [searchParams, setSearchParams, defaultTimezone],
  );

  /** A saved view's query in place of the whole state (and of `?view=`), read as a link would be. */
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
