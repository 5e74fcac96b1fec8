import { segments, trackerSegments } from '@switchyard/domain';
import { useMemo } from 'react';
import { useSegmentLookup } from '../../api/useSegmentLookup';
import type { FlowType } from './ConditionBuilderContext';

/** §3.9: on a segment's edit screen, the current segment is the last part of the URL path. */
export function currentSegmentId(flowType: FlowType, pathname: string): string | null {
  const route = flowType === 'tracker' ? trackerSegments.route : segments.route;
  const prefix = `${route}/edit/`;
  if (!pathname.startsWith(prefix)) return null;
  const id = pathname.slice(prefix.length).split('/').filter(Boolean).pop();
  return id ? decodeURIComponent(id) : null;
}

/** The segments a segmentId rule must not offer on a segment's screen: that segment and its own `segments_chain` (§3.9). */
export function useExcludedSegments(flowType: FlowType, current: string): readonly string[] {
  const lookup = useSegmentLookup(flowType === 'tracker' ? 'tracker-segments' : 'segments');
  return useMemo(() => {
    const chain = lookup.find((segment) => segment.value === current)?.segments_chain ?? [];
    return [current, ...chain];
  }, [current, lookup]);
}
