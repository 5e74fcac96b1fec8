import type { ImportAnswer } from '@switchyard/domain';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import { answer } from '../rules/testRules';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { ImportScreen } from './ImportScreen';

// The import wizard: pick the tracker, give the file (or URL and key), see the dry run, confirm.

const DRY: ImportAnswer = {
  id: null,
  from: 'keitaro',
  dry_run: true,
  status: 'done',
  progress: { done: 2, total: 2 },
  summary: { created: 2, updated: 0, unchanged: 0, left_out: 1 },
  records: [
    {
      kind: 'tracker-offers',
      old_kind: 'offer',
      old_id: '11',
      name: 'Mobile US',
      new_id: null,
      action: 'created',
      campaign: null,
    },
    {
      kind: 'tracker-campaigns',
      old_kind: 'campaign',
      old_id: '101',
      name: 'US mobile',
      new_id: null,
      action: 'created',
      campaign: { old_id: '101', name: 'US mobile' },
    },
  ],
  left_out: [
    {
      kind: 'stream_filter',
      old_id: '211',
      name: 'iOS zone 7: connection_type',
      reason: 'no equivalent condition',
      campaign: { old_id: '101', name: 'US mobile' },
    },
  ],
  error: null,
  created_at: '2026-11-28T10:00:00.000Z',
  finished_at: '2026-11-28T10:00:01.000Z',
};
const DONE: ImportAnswer = {
  ...DRY,
  id: 7,
  dry_run: false,
  records: DRY.records.map((record, index) => ({ ...record, new_id: `NEW${index}` })),
};

function renderImport() {
  tokenStore.set('test-token');
  const user = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'] };
  const auth = { user } as unknown as AuthContextValue;
  return render(
    <ControlProviders>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={['/tracker/imports']}>
          <Routes>
            <Route path="/tracker/imports" element={<ImportScreen />} />
          </Routes>
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

function chooseFile(text: string) {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([text], 'export.json', { type: 'application/json' })] } });
}

describe('the import wizard', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('shows the dry run of a file, then imports it on confirmation', async () => {
    const urls: string[] = [];
    const fetchCalls = answer({
      'POST imports': () => ({ body: urls.length === 1 ? DRY : DONE }),
    });
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return original(input, init);
    });
    renderImport();
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    chooseFile(JSON.stringify({ campaigns: [{ id: 101, name: 'US mobile' }] }));
    const dry = screen.getByRole('button', { name: 'Dry run' });
    await waitFor(() => expect(dry).toBeEnabled());
    fireEvent.click(dry);

    await screen.findByText('What the import would do');
    expect(urls[0]).toMatch(/\/api\/imports\?dry_run=true$/);
    expect(fetchCalls[0]).toMatchObject({
      method: 'POST',
      body: { from: 'keitaro', file: { campaigns: [{ id: 101, name: 'US mobile' }] } },
    });
    expect(screen.getByText('2 to create')).toBeVisible();
    const records = screen.getByRole('table', { name: 'Records' });
    expect(within(records).getByText('offer 11 → new')).toBeVisible();
    const leftOut = screen.getByRole('table', { name: 'Left out' });
    const cells = within(within(leftOut).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'stream_filter: iOS zone 7: connection_type',
      'US mobile',
      'no equivalent condition',
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Import #7 done');
    expect(urls[1]).toMatch(/\/api\/imports$/);
    expect(within(screen.getByRole('table', { name: 'Records' })).getByText('offer 11 → NEW0')).toBeVisible();
  });

  it('refuses a file that is not a JSON object before sending anything', async () => {
    const calls = answer({});
    renderImport();
    chooseFile('not json');
    expect(await screen.findByText('This file is not a JSON object.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Dry run' })).toBeDisabled();
    expect(calls).toEqual([]);
  });

  it('imports from Binom the same way: its file, or its URL and API key', async () => {
    const calls = answer({ 'POST imports': () => ({ body: { ...DRY, from: 'binom' } }) });
    renderImport();
    fireEvent.click(screen.getByRole('combobox', { name: 'Tracker' }));
    fireEvent.click(screen.getByRole('option', { name: 'Binom' }));
    expect(screen.getByText(/v2 API's records/)).toBeVisible();
    chooseFile(JSON.stringify({ campaigns: [{ id: 7, name: 'Zone 7', key: 'p3n7' }] }));
    const dry = screen.getByRole('button', { name: 'Dry run' });
    await waitFor(() => expect(dry).toBeEnabled());
    fireEvent.click(dry);
    await screen.findByText('What the import would do');
    expect(calls[0]).toMatchObject({
      method: 'POST',
      body: { from: 'binom', file: { campaigns: [{ id: 7, name: 'Zone 7', key: 'p3n7' }] } },
    });

    fireEvent.click(screen.getByRole('radio', { name: 'Live tracker' }));
    fireEvent.change(screen.getByLabelText('Tracker URL'), { target: { value: 'https://binom.example' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'b-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatchObject({ body: { from: 'binom', url: 'https://binom.example', api_key: 'b-key' } });
  });

  it("names a refused key under the key's field", async () => {
    answer({
      'POST imports': {
        status: 400,
        body: {
          message: 'The tracker refused the API key.',
          errors: { api_key: ['The tracker refused this API key.'] },
        },
      },
    });
    renderImport();
    fireEvent.click(screen.getByRole('radio', { name: 'Live tracker' }));
    fireEvent.change(screen.getByLabelText('Tracker URL'), { target: { value: 'https://old.example' } });
    fireEvent.change(screen.getByLabelText('Admin API key'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(await screen.findByText('The tracker refused this API key.')).toBeVisible();
  });
});
