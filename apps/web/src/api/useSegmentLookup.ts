import { segments, trackerSegments } from '@switchyard/domain';
import { useMemo } from 'react';
import { type LookupOption, lookupOptionOf, useLookupRecords } from './useLookup';

/** A segment with the `segments_chain` extra of §3.1: the segments it refers to, directly or not. */
export interface SegmentLookupOption extends LookupOption {
  value: string;
  segments_chain: string[];
}

/** API segments (`segments`) or tracker segments with their chain, from the `segments-with-chain` lists. */
export function useSegmentLookup(kind: 'segments' | 'tracker-segments'): SegmentLookupOption[] {
  const definition = kind === 'segments' ? segments : trackerSegments;
  const records = useLookupRecords(definition, { withChain: true });
  return useMemo(
    () =>
      records.map((record) => {
        const chain = record.segments_chain;
        return {
          ...lookupOptionOf(definition, record),
          value: String(record[definition.lookup.value]),
          segments_chain: Array.isArray(chain) ? chain.map(String) : [],
        };
      }),
    [records, definition],
  );
}
