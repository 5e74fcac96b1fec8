import { QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import { useCountryOptions } from './useCountryOptions';
import { useCurrencyOptions } from './useCurrencyOptions';
import { useDefaultEmailWeights } from './useDefaultEmailWeights';
import { useTimezoneOptions } from './useTimezoneOptions';

function wrapperWith(queryClient: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <ControlProviders queryClient={queryClient}>{children}</ControlProviders>
  );
}

function newClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

describe('reference data hooks', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads currencies as Code/Name', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify([{ Code: 'EUR', Name: 'Euro' }]))),
    );
    const { result } = renderHook(() => useCurrencyOptions(), { wrapper: wrapperWith(newClient()) });
    await waitFor(() => expect(result.current).toEqual([{ value: 'EUR', label: 'Euro' }]));
  });

  it('loads the default email weights once per session', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify([{ key: 'gmail', name: 'Gmail', weight: 100 }])));
    vi.stubGlobal('fetch', fetchMock);
    const client = newClient();
    const first = renderHook(() => useDefaultEmailWeights(), { wrapper: wrapperWith(client) });
    await waitFor(() => expect(first.result.current).toEqual([{ value: 'gmail', label: 'Gmail', weight: 100 }]));
    first.unmount();
    const second = renderHook(() => useDefaultEmailWeights(), { wrapper: wrapperWith(client) });
    expect(second.result.current).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(client.getQueryCache().getAll()[0]?.options.gcTime).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps the timezone locations and warns when they cannot be loaded (§8)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 500, statusText: 'Server Error' })),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { result } = renderHook(() => useTimezoneOptions(), { wrapper: wrapperWith(newClient()) });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Unable to obtain timezone locations'));
    expect(result.current).toEqual([]);
  });

  it('offers the built-in countries without a request', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderHook(() => useCountryOptions(), { wrapper: wrapperWith(newClient()) });
    expect(result.current.length).toBeGreaterThan(240);
    expect(result.current).toContainEqual({ value: 'FR', label: 'France' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
