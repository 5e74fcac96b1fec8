import { ModalsProvider } from '@mantine/modals';
import type { Backup } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import { BackupsScreen } from './BackupsScreen';

const OLDER: Backup = {
  name: 'switchyard-20261127-080000.db',
  bytes: 1_250_000,
  created_at: '2026-11-27T08:00:00.000Z',
};
const NEWER: Backup = {
  name: 'switchyard-20261128-060000.db',
  bytes: 2_400_000,
  created_at: '2026-11-28T06:00:00.000Z',
};

/** The server's backups, kept here: POST adds NEWER, DELETE removes by name; `refuse` answers POST with an error. */
function server(initial: Backup[], refuse?: { status: number; message: string }) {
  let kept = [...initial];
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const url = String(input);
      calls.push(`${method} ${url}`);
      if (method === 'POST') {
        if (refuse) return new Response(JSON.stringify({ message: refuse.message }), { status: refuse.status });
        kept = [NEWER, ...kept];
        return new Response(JSON.stringify({ ...NEWER, journal_events: 3, added_from_journal: 1 }), { status: 201 });
      }
      if (method === 'DELETE') {
        kept = kept.filter((backup) => !url.endsWith(backup.name));
        return new Response(null, { status: 204 });
      }
      return new Response(JSON.stringify({ list: kept, total: kept.length }));
    }),
  );
  return calls;
}

function renderScreen() {
  tokenStore.set('test-token');
  return render(
    <ControlProviders>
      <ModalsProvider>
        <MemoryRouter initialEntries={['/admin/backups']}>
          <BackupsScreen />
        </MemoryRouter>
      </ModalsProvider>
    </ControlProviders>,
  );
}

const fileNames = () =>
  screen
    .queryAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('BackupsScreen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says there are none yet, then lists the one made with its size', async () => {
    const calls = server([]);
    renderScreen();
    expect(await screen.findByText('No backups yet.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(fileNames()).toEqual([NEWER.name]));
    expect(screen.getByText('2.4 MB')).toBeVisible();
    expect(calls).toContain('POST /api/backups');
  });

  it('deletes a backup only once the operator confirms', async () => {
    const calls = server([NEWER, OLDER]);
    renderScreen();
    await waitFor(() => expect(fileNames()).toEqual([NEWER.name, OLDER.name]));
    const olderRow = screen.getAllByRole('row')[2]!;
    fireEvent.click(within(olderRow).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(`${OLDER.name} will be deleted from the data directory.`)).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(fileNames()).toEqual([NEWER.name]));
    expect(calls).toContain(`DELETE /api/backups/${OLDER.name}`);
  });

  it('shows the server’s word when it cannot back up (PostgreSQL)', async () => {
    server([], { status: 400, message: 'This instance keeps its data in PostgreSQL: back it up with pg_dump.' });
    renderScreen();
    await screen.findByText('No backups yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Back up now' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This instance keeps its data in PostgreSQL: back it up with pg_dump.',
    );
  });
});
