import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore, workspaceStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { type FakeLiveServer, fakeLiveServer } from './fakeLiveServer';
import { LiveScreen } from './LiveScreen';
import { liveBackoff } from './liveConnection';

const ANALYST = {
  id: 1,
  name: 'Ana',
  email: 'ana@example.test',
  permissions: [
    '/tracker/reports/get',
    '/tracker/reports/money',
    '/tracker/campaign/get',
    '/tracker/offer/get',
    '/tracker/flow/get',
  ],
  workspaces: [{ id: 7, name: 'Main' }],
};

const LOOKUPS = {
  'tracker/campaigns': [
    { external_id: 'cmp-1', name: 'Spring push' },
    { external_id: 'cmp-2', name: 'Autumn push' },
  ],
  'tracker/offers': [{ external_id: 'off-1', name: 'Shoes' }],
  'tracker/flows': [{ external_id: 'flow-1', name: 'Main flow', path_groups: [{ id: 'everyone', name: 'Everyone' }] }],
};

const click = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  time: '2026-11-24T12:00:00.000Z',
  campaign: 'cmp-1',
  offer: 'off-1',
  path_group: 'everyone',
  country: 'GB',
  device: 'mobile',
  unique: true,
  bot: false,
  bot_reason: null,
  ...extra,
});

let server: FakeLiveServer;

function renderScreen(path = '/tracker/live', user: object = ANALYST) {
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/tracker/live" element={<LiveScreen />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

/** The live table's rows as their cells' texts, header left out. */
function rows(): string[][] {
  return within(screen.getByRole('table', { name: 'Live events' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

async function openStream(index = 0) {
  await waitFor(() => expect(server.streams[index]).toBeTruthy());
  await screen.findByText('Live');
  return server.streams[index]!;
}

describe('LiveScreen', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
    tokenStore.set('secret-token');
    workspaceStore.set(7);
    server = fakeLiveServer(LOOKUPS);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    workspaceStore.clear();
  });

  it('shows each event as it arrives, newest first, with names, the bot reason in words and the payout', async () => {
    renderScreen();
    expect(screen.getByText('Waiting for events. They show here as they happen.')).toBeVisible();
    const stream = await openStream();
    // The token goes in the header, never in the URL.
    expect(stream.url.search).toBe('');
    expect(stream.headers.Authorization).toBe('Bearer secret-token');
    expect(stream.headers['X-Workspace']).toBe('7');

    act(() => {
      stream.send('click', click('click-1', { bot: true, bot_reason: 'datacenter_asn' }));
      stream.write(': ping\n\nevent: conversion\ndata: {"id":"conv-1","time":"2026-11-24T12:00:05.000Z",');
      stream.write('"campaign":"cmp-1","offer":"off-1","state":"approved","payout":4.5,"currency":"USD"}\n\n');
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [conversion, bot] = rows();
    expect(conversion).toEqual(expect.arrayContaining(['Conversion', 'Spring push', 'Shoes', '$4.50', 'Approved']));
    expect(bot).toEqual(
      expect.arrayContaining(['Click', 'Spring push', 'Shoes', 'Everyone', 'GB', 'mobile', 'Yes: Datacenter network']),
    );
  });

  it('holds new events while paused, counts them, and shows them on resume', async () => {
    renderScreen();
    const stream = await openStream();
    act(() => stream.send('click', click('first')));
    await waitFor(() => expect(rows()).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => {
      stream.send('lead', click('lead-1', { decision: 'accepted' }));
      stream.send('click', click('second'));
    });
    expect(await screen.findByText('Paused. New events while paused: 2. They show when you resume.')).toBeVisible();
    expect(rows()).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(rows().map((cells) => cells[1])).toEqual(['Click', 'Lead', 'Click']));
    expect(screen.queryByText(/New events while paused/)).toBeNull();
  });

  it('keeps only the newest 200 of what arrived while paused, and says so', async () => {
    renderScreen();
    const stream = await openStream();
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => {
      for (let index = 1; index <= 205; index += 1) stream.send('click', click(`c${index}`, { country: `C${index}` }));
    });
    expect(
      await screen.findByText(
        'Paused. New events while paused: 205. Only the newest 200 show when you resume; the others are dropped.',
      ),
    ).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(rows()).toHaveLength(200));
    expect(rows()[0]).toContain('C205');
    expect(rows()[199]).toContain('C6');
  });

  it('says when the server samples the stream, and how much', async () => {
    renderScreen();
    const stream = await openStream();
    act(() => stream.send('click', click('busy', { sampled: true, rate: 4 })));
    expect(await screen.findByText('Sampled: about 1 in 4 events shown')).toBeVisible();
  });

  it('asks the server for one campaign’s events when one is chosen, closing the stream of all', async () => {
    renderScreen();
    const all = await openStream();
    fireEvent.click(screen.getByRole('combobox', { name: 'Campaign' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Autumn push' }));
    await waitFor(() => expect(server.streams).toHaveLength(2));
    expect(all.aborted).toBe(true);
    expect(server.streams[1]!.url.searchParams.get('campaign')).toBe('cmp-2');
  });

  it('offers the campaigns seen in the stream to whoever may get reports but not read campaigns', async () => {
    renderScreen('/tracker/live', { ...ANALYST, permissions: ['/tracker/reports/get'] });
    const stream = await openStream();
    act(() => stream.send('click', click('click-1', { campaign: 'cmp-9' })));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(screen.getByRole('combobox', { name: 'Campaign' }));
    expect(screen.queryByRole('option', { name: 'Spring push' })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: 'cmp-9' }));
    await waitFor(() => expect(server.streams).toHaveLength(2));
    expect(server.streams[1]!.url.searchParams.get('campaign')).toBe('cmp-9');
    const lookups = vi.mocked(fetch).mock.calls.filter(([url]) => !String(url).startsWith('/api/live'));
    expect(lookups).toEqual([]);
  });

  it('hides the kinds left unchosen without asking the server again', async () => {
    renderScreen();
    const stream = await openStream();
    act(() => {
      stream.send('click', click('click-1'));
      stream.send('lead', click('lead-1'));
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Click' }));
    await waitFor(() => expect(rows().map((cells) => cells[1])).toEqual(['Lead']));
    expect(server.streams).toHaveLength(1);
  });

  it('says why when the server refuses the stream, and does not ask again', async () => {
    server.refuseWith = { status: 403, message: 'You may not see reports here.' };
    // Timers that run as real ones do, and can be jumped past the longest pause before a reconnection.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    renderScreen();
    expect(await screen.findByText('Your account may not watch the live events of this workspace.')).toBeVisible();
    expect(screen.getByText('You may not see reports here.')).toBeVisible();
    expect(screen.getByText('Not connected')).toBeVisible();
    // Past the longest pause before a reconnection: had one been planned, it would have asked by then.
    try {
      await act(() => vi.advanceTimersByTimeAsync(2 * liveBackoff(100)));
    } finally {
      vi.useRealTimers();
    }
    expect(vi.mocked(fetch).mock.calls.filter(([url]) => String(url).startsWith('/api/live'))).toHaveLength(1);
  });

  it('reconnects after the stream ends, saying so meanwhile', async () => {
    renderScreen();
    const stream = await openStream();
    act(() => stream.end());
    expect(await screen.findByText('Reconnecting…')).toBeVisible();
    await waitFor(() => expect(server.streams).toHaveLength(2), { timeout: 3000 });
    expect(await screen.findByText('Live')).toBeVisible();
  });
});
