import type { HistoryEntryDetail } from '@switchyard/domain';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { HistoryChanges } from './HistoryChanges';

// A traffic source's parameter and postback event lists read as tables, not as JSON.

const click = { name: 'Click ID', ts_parameter: 'clickid', ts_token: '{SUBID}', internal_token: 'var1', enabled: true };
const zone = { name: 'Zone', ts_parameter: 'zone_id', ts_token: '{zone}', internal_token: 'var2', enabled: false };
const sent = {
  postback_event_external_id: 'pe-1',
  postback_url: 'https://source.example/pb?cid={var1}',
  is_conversion: true,
  send_to_traffic_source: true,
  send_zero_conversions: false,
};
const ENTRY: HistoryEntryDetail = {
  id: 9,
  created_at: '2026-11-20T09:30:00.000Z',
  action: 'update',
  resource: 'traffic-sources',
  record_id: 'ts-1',
  record_name: 'PropellerAds',
  user: { id: 1, name: 'Ada' },
  ip: null,
  restored_from: null,
  before: { name: 'PropellerAds', parameters: [click], postback_events: [] },
  after: { name: 'PropellerAds', parameters: [click, zone], postback_events: [sent] },
};

function renderChanges() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).startsWith('/api/postback-events')
        ? new Response(JSON.stringify({ list: [{ external_id: 'pe-1', name: 'Sale' }], total: 1 }))
        : new Response(JSON.stringify({ list: [], total: 0 })),
    ),
  );
  tokenStore.set('test-token');
  render(
    <ControlProviders>
      <HistoryChanges entry={ENTRY} />
    </ControlProviders>,
  );
}

const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('HistoryChanges: lists of rows', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it('shows parameters before and after as tables with labelled columns', async () => {
    renderChanges();
    const [before, after, sentAfter] = await screen.findAllByRole('table');
    expect(cells(before!)).toEqual([
      ['Name', 'Parameter', 'Token', 'Internal token', 'Enabled'],
      ['Click ID', 'clickid', '{SUBID}', 'var1', 'on'],
    ]);
    expect(cells(after!)).toEqual([
      ['Name', 'Parameter', 'Token', 'Internal token', 'Enabled'],
      ['Click ID', 'clickid', '{SUBID}', 'var1', 'on'],
      ['Zone', 'zone_id', '{zone}', 'var2', 'off'],
    ]);
    // The postback event by its name once looked up; an empty side says so.
    expect(await within(sentAfter!).findByText('Sale')).toBeVisible();
    expect(screen.getByText('(none)')).toBeVisible();
    expect(document.body.textContent).not.toContain('"ts_parameter"');
  });

  it('in Arabic', async () => {
    await act(() => i18n.changeLanguage('ar'));
    renderChanges();
    const [before] = await screen.findAllByRole('table');
    const t = i18n.getFixedT('ar');
    expect(cells(before!)[0]).toEqual([
      t('history:fields.name'),
      'المعامل',
      'الرمز',
      'الرمز الداخلي',
      t('history:fields.enabled'),
    ]);
    expect(within(before!).getByText(t('history:before'))).toBeVisible();
  });
});
