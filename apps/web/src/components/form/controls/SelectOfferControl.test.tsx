import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormElement } from '../types';
import { renderControl } from './renderControl';
import { SelectOfferControl } from './SelectOfferControl';

const element: FormElement = { name: 'offer_external_id', type: 'select-offer', label: 'Offer' };

function answer(list: unknown[]) {
  return vi.fn(async (_url: string) => new Response(JSON.stringify({ list, total: list.length }), { status: 200 }));
}

describe('SelectOfferControl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads every offer with its backup chain and marks disabled ones', async () => {
    const fetchMock = answer([
      { external_id: 'o1', name: 'Summer sale', enabled: true },
      { external_id: 'o2', name: 'Old promo', enabled: false },
    ]);
    vi.stubGlobal('fetch', fetchMock);
    renderControl(SelectOfferControl, element, { value: null });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/offers?limit=0&with_backup_chain=true');
    fireEvent.click(screen.getByRole('combobox', { name: 'Offer' }));
    expect(await screen.findByRole('option', { name: /Old promo/ })).toBeVisible();
    expect(screen.getByRole('option', { name: /Old promo/ }).textContent).toContain('Disabled');
    expect(screen.getByRole('option', { name: /Summer sale/ }).textContent).not.toContain('Disabled');
  });

  it('reports the chosen offer’s enabled flag (§4)', async () => {
    vi.stubGlobal('fetch', answer([{ external_id: 'o2', name: 'Old promo', enabled: false }]));
    const onEnabledChange = vi.fn();
    const { onChange } = renderControl(SelectOfferControl, { ...element, onEnabledChange }, { value: null });
    fireEvent.click(screen.getByRole('combobox', { name: 'Offer' }));
    fireEvent.click(await screen.findByRole('option', { name: /Old promo/ }));
    expect(onChange).toHaveBeenLastCalledWith('o2');
    expect(onEnabledChange).toHaveBeenLastCalledWith(false);
  });

  it('only warns on the console when the offers cannot be loaded (§8)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"boom"}', { status: 500, statusText: 'Server Error' })),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderControl(SelectOfferControl, element, { value: null });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Unable to obtain offers'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
