import type { ReportView } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { ReportContext } from './ReportContext';
import { ReportViewsMenu } from './ReportViewsMenu';
import { parseReportParams } from './reportParams';
import type { ReportController } from './useReportController';

// The Views menu names the view on screen, opens my views, and saves the report on screen under
// a name that none of my views has yet (said before anything is sent).

const offers: ReportView = {
  id: 7,
  name: 'Offers',
  params: 'group_by=offer&timezone=UTC',
  user_id: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};
const lastMonth: ReportView = { ...offers, id: 8, name: 'Last month', params: 'range=lastMonth&timezone=UTC' };

describe('ReportViewsMenu', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const load = vi.fn();

  beforeEach(async () => {
    await i18n.changeLanguage('en');
    load.mockReset();
    fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { name: string; params: string };
        return new Response(JSON.stringify({ ...offers, id: 9, ...body }), { status: 201 });
      }
      expect(url).toBe('/api/report-views');
      return new Response(JSON.stringify({ list: [lastMonth, offers] }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderMenu(query: string) {
    const controller = {
      params: parseReportParams(new URLSearchParams(query), 'UTC'),
      load,
    } as unknown as ReportController;
    render(
      <ControlProviders>
        <ReportContext.Provider value={controller}>
          <ReportViewsMenu />
        </ReportContext.Provider>
      </ControlProviders>,
    );
  }

  it('names the view on screen and opens another', async () => {
    renderMenu('group_by=offer&page=2');
    fireEvent.click(await screen.findByRole('button', { name: 'View: Offers' }));
    expect(await screen.findByRole('menuitem', { name: 'Copy link to this view' })).toBeVisible();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Last month' }));
    expect(load).toHaveBeenCalledWith('range=lastMonth&timezone=UTC');
  });

  it('saves the report on screen under a new name, refusing one already used', async () => {
    renderMenu('group_by=offer&attribution=postback');
    fireEvent.click(await screen.findByRole('button', { name: 'Views' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Save current view as…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save the current view' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    fireEvent.change(name, { target: { value: 'Offers' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('You already have a view with this name.')).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/report-views', expect.objectContaining({ method: 'POST' }));

    fireEvent.change(name, { target: { value: 'Offers by postback time' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/report-views', expect.objectContaining({ method: 'POST' })),
    );
    const post = fetchMock.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      name: 'Offers by postback time',
      params: 'group_by=offer&timezone=UTC&attribution=postback',
    });
  });
});
