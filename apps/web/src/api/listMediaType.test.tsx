import { getResource } from '@switchyard/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, apiList } from './client';
import { useResourceList } from './useResourceList';

function stubFetch() {
  const fetchMock = vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify({ list: [], total: 0 })),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const acceptOf = (init: RequestInit | undefined) => (init?.headers as Record<string, string> | undefined)?.Accept;

describe('§7: list requests ask for the ld+json media type', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a list call asks for application/ld+json; any other call for application/json', async () => {
    const fetchMock = stubFetch();
    await apiList('traffic-sources');
    await api('traffic-sources/ts-1');
    expect(acceptOf(fetchMock.mock.calls[0]?.[1])).toBe('application/ld+json');
    expect(acceptOf(fetchMock.mock.calls[1]?.[1])).toBe('application/json');
  });

  it('a list screen’s page is asked for as application/ld+json', async () => {
    const fetchMock = stubFetch();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useResourceList(getResource('traffic-sources'), { page: 1 }), { wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(/^\/api\/traffic-sources\?/);
    expect(acceptOf(fetchMock.mock.calls[0]?.[1])).toBe('application/ld+json');
  });
});
