import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { theme } from '../../shared/theme';
import { CampaignCostButton } from './CampaignCostDialog';

type Answer = { status: number; body: unknown };

/** fetch answering by path; timezone locations and anything else: an empty list. */
function stubFetch(answers: Record<string, Answer>) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    const path = String(url).split('?')[0]!;
    const answer = answers[path] ?? { status: 200, body: [] };
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderButton() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme}>
        <QueryClientProvider client={client}>
          <CampaignCostButton campaignId="camp-1" />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
}

async function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Update cost' }));
  return screen.findByRole('dialog', { name: 'Update campaign cost' });
}

describe('Update cost', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the range, amount and parameter, and shows how many clicks changed', async () => {
    const fetchMock = stubFetch({ '/api/tracker/campaigns/camp-1/costs': { status: 200, body: { clicks: 5 } } });
    renderButton();
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2026-11-10' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2026-11-11' } });
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '12.5' } });
    fireEvent.click(within(dialog).getByRole('combobox', { name: 'Parameter' }));
    fireEvent.click(await screen.findByRole('option', { name: 'var1', hidden: true }));
    fireEvent.change(within(dialog).getByLabelText('Parameter value'), { target: { value: 'zone-7' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update cost' }));

    expect(await within(dialog).findByText('5 clicks updated')).toBeVisible();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/costs'))!;
    expect(call[1]?.method).toBe('POST');
    expect(JSON.parse(String(call[1]?.body))).toEqual({
      start: '2026-11-10',
      end: '2026-11-11',
      timezone: 'UTC',
      amount: 12.5,
      filter: { var1: 'zone-7' },
    });
  });

  it('shows what is wrong on its field, from the form and from the server', async () => {
    stubFetch({
      '/api/tracker/campaigns/camp-1/costs': {
        status: 400,
        body: { message: 'No clicks in this range', errors: { start: ['No clicks in this range'] } },
      },
    });
    renderButton();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update cost' }));
    expect(await within(dialog).findByText('Enter an amount.')).toBeVisible();

    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update cost' }));
    expect(await within(dialog).findByText('No clicks in this range')).toBeVisible();
    expect(within(dialog).queryByText(/clicks updated/)).toBeNull();
  });

  it('imports CSV lines and answers each', async () => {
    const fetchMock = stubFetch({
      '/api/tracker/campaigns/costs/import': {
        status: 200,
        body: {
          lines: [
            { line: 1, text: '2026-11-10,camp-1,,,5', status: 200, clicks: 4, message: null },
            {
              line: 2,
              text: '2026-11-10,nope,,,5',
              status: 404,
              clicks: 0,
              message: 'No campaign nope in this workspace.',
            },
          ],
          updated: 1,
          refused: 1,
        },
      },
    });
    renderButton();
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'CSV import' }));
    // Its example line names this campaign, not a word to replace.
    expect(within(dialog).getByLabelText('Lines')).toHaveAttribute(
      'placeholder',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2},camp-1,var1,zone-7,12\.50$/),
    );
    const lines = '2026-11-10,camp-1,,,5\n2026-11-10,nope,,,5';
    fireEvent.change(await within(dialog).findByLabelText('Lines'), { target: { value: lines } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Import' }));

    expect(await within(dialog).findByText('1 lines applied, 1 refused')).toBeVisible();
    expect(within(dialog).getByText('No campaign nope in this workspace.')).toBeVisible();
    expect(within(dialog).getByText('Updated')).toBeVisible();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/costs/import'))!;
    expect(JSON.parse(String(call[1]?.body))).toEqual({ text: lines });
  });
});
