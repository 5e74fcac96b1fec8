import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useReportParams } from './useReportParams';

// Two changes before the next render (two quick clicks on a slow machine) both stand: the second starts
// from the first, not from the state the render showed.

describe('useReportParams', () => {
  it('keeps both of two changes made before the page renders again', () => {
    const wrapper = ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={['/tracker/reports?group_by=campaign&columns=clicks,unique_clicks,conversions']}>
        {children}
      </MemoryRouter>
    );
    const { result } = renderHook(() => useReportParams(), { wrapper });
    const { update } = result.current;
    act(() => {
      update((previous) => ({ columns: [...(previous.columns ?? []), 'leads'] }), { replace: true });
      update((previous) => ({ columns: (previous.columns ?? []).filter((key) => key !== 'unique_clicks') }), {
        replace: true,
      });
      update({ layout: 'flat' });
    });
    expect(result.current.params.columns).toEqual(['clicks', 'conversions', 'leads']);
    expect(result.current.params.layout).toBe('flat');
    expect(result.current.params.groups).toEqual(['campaign']);
  });
});
