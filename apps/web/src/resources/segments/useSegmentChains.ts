import { useMemo } from 'react';
import { useSegmentLookup } from '../../api/useSegmentLookup';

/** Each segment's `segments_chain` as names, from the `segments-with-chain` lookup (§3.1). */
export type SegmentChains = ReadonlyMap<string, readonly string[]>;

/**
 * The list asks the plain list endpoint, whose records carry no chain; the chains come from the
 * with-chain lookup (shared with the condition builder's segment choices), named from the same list.
 */
export function useSegmentChains(kind: 'segments' | 'tracker-segments'): SegmentChains {
  const lookup = useSegmentLookup(kind);
  return useMemo(() => {
    const names = new Map(lookup.map((segment) => [segment.value, segment.label]));
    return new Map(lookup.map((segment) => [segment.value, segment.segments_chain.map((id) => names.get(id) ?? id)]));
  }, [lookup]);
}
