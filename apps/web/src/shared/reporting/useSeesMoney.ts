import { visibleMetrics } from '@switchyard/domain';
import { useCan } from '../auth/useCan';

/**
 * Whether the signed-in user may see money (cost, revenue, profit, ROI, EPC, payouts). The
 * server leaves those figures out for anyone else; the screens leave out their columns, cards and lines
 * rather than show them empty.
 */
export function useSeesMoney(): boolean {
  return useCan('tracker', 'reports', 'money');
}

/** The report figures the signed-in user sees, in the report's order. */
export function useVisibleMetrics() {
  return visibleMetrics(useSeesMoney());
}
