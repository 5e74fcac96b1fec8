import {
  DEFAULT_PAGE,
  OUTBOUND_STATES,
  type OutboundState,
  POSTBACK_OUTCOMES,
  type PostbackOutcome,
} from '@switchyard/domain';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** Import is shown to whoever may create conversions. */
export const POSTBACK_LOG_TABS = ['incoming', 'outbound', 'import'] as const;
export type PostbackLogTab = (typeof POSTBACK_LOG_TABS)[number];

/** What the postback log shows, kept in the URL like every list's state. */
export interface PostbackLogParams {
  tab: PostbackLogTab;
  page: number;
  search: string;
  /** Incoming only. */
  outcome: PostbackOutcome | undefined;
  /** Incoming only: days, YYYY-MM-DD, in the browser's timezone. */
  from: string;
  to: string;
  /** Outbound only. */
  state: OutboundState | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.find((candidate) => candidate === value);
}

export function parsePostbackLogParams(searchParams: URLSearchParams): PostbackLogParams {
  const page = Number(searchParams.get('page'));
  const day = (key: string) => {
    const value = searchParams.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    tab: oneOf(POSTBACK_LOG_TABS, searchParams.get('tab')) ?? 'incoming',
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_PAGE,
    search: searchParams.get('search') ?? '',
    outcome: oneOf(POSTBACK_OUTCOMES, searchParams.get('outcome')),
    from: day('from'),
    to: day('to'),
    state: oneOf(OUTBOUND_STATES, searchParams.get('state')),
  };
}

/**
 * `?tab=outbound&page=2&search=…&outcome=…&from=…&to=…&state=…`, defaults left out. A new filter goes back
 * to page 1; another tab starts with its own filters empty (but for those given with the switch), since a
 * search means something else there.
 */
export function usePostbackLogParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = useMemo(() => parsePostbackLogParams(searchParams), [searchParams]);

  const update = useCallback(
    (changes: Partial<PostbackLogParams>, options?: { replace?: boolean }) => {
      setSearchParams(
        (previous) => {
          const current = parsePostbackLogParams(previous);
          const switching = changes.tab !== undefined && changes.tab !== current.tab;
          const next: PostbackLogParams = switching
            ? { ...parsePostbackLogParams(new URLSearchParams()), ...changes, tab: changes.tab ?? current.tab }
            : { ...current, ...changes };
          if (changes.page === undefined) next.page = DEFAULT_PAGE;
          const result = new URLSearchParams();
          const set = (key: string, value: string | undefined, fallback?: string) => {
            if (value !== undefined && value !== '' && value !== fallback) result.set(key, value);
          };
          set('tab', next.tab, 'incoming');
          set('page', String(next.page), String(DEFAULT_PAGE));
          set('search', next.search.trim());
          set('outcome', next.outcome);
          set('from', next.from);
          set('to', next.to);
          set('state', next.state);
          return result;
        },
        { replace: options?.replace },
      );
    },
    [setSearchParams],
  );

  return {
    ...params,
    /** Any filter set on the current tab (the empty state then offers to clear them). */
    filtered:
      params.search !== '' ||
      (params.tab === 'incoming'
        ? Boolean(params.outcome || params.from || params.to)
        : params.tab === 'outbound' && Boolean(params.state)),
    setTab: useCallback((tab: PostbackLogTab) => update({ tab }), [update]),
    setPage: useCallback((page: number) => update({ page }), [update]),
    /** Typing replaces the history entry instead of stacking one per keystroke. */
    setSearch: useCallback((search: string) => update({ search }, { replace: true }), [update]),
    setOutcome: useCallback((outcome: PostbackOutcome | undefined) => update({ outcome }), [update]),
    setDays: useCallback((from: string, to: string) => update({ from, to }), [update]),
    setState: useCallback((state: OutboundState | undefined) => update({ state }), [update]),
    /** Every postback of one conversion, whatever the other filters said; a new history entry. */
    showConversion: useCallback(
      (conversionId: string) => update({ tab: 'incoming', search: conversionId, outcome: undefined, from: '', to: '' }),
      [update],
    ),
    clearFilters: useCallback(
      () => update({ search: '', outcome: undefined, from: '', to: '', state: undefined }),
      [update],
    ),
  };
}

export type PostbackLogParamsController = ReturnType<typeof usePostbackLogParams>;
