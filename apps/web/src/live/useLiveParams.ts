import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { isLiveKind, LIVE_KINDS, type LiveKind } from './liveEvent';

export interface LiveParams {
  /** The campaign the server streams; null: every campaign of the workspace. */
  campaign: string | null;
  /** The kinds shown (the stream brings them all; the others are only hidden). */
  kinds: LiveKind[];
}

/** The live screen's filters in its URL (`/tracker/live?campaign=…&kinds=click,lead`), so a link keeps them. */
export function useLiveParams(): [LiveParams, (next: Partial<LiveParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo<LiveParams>(() => {
    const kinds = (search.get('kinds') ?? '').split(',').filter(isLiveKind);
    return { campaign: search.get('campaign') || null, kinds: kinds.length > 0 ? kinds : [...LIVE_KINDS] };
  }, [search]);
  const setParams = useCallback(
    (next: Partial<LiveParams>) => {
      const merged = { ...params, ...next };
      const result = new URLSearchParams();
      if (merged.campaign) result.set('campaign', merged.campaign);
      if (merged.kinds.length > 0 && merged.kinds.length < LIVE_KINDS.length)
        result.set('kinds', merged.kinds.join(','));
      setSearch(result, { replace: true });
    },
    [params, setSearch],
  );
  return [params, setParams];
}
