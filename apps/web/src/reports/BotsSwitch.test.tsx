import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { BotsSwitch } from './BotsSwitch';
import { ReportContext } from './ReportContext';
import { reportQuery } from './useReport';
import type { ReportController } from './useReportController';

// The reports screen leaves bots out of its figures until "Include bots" is switched on; the
// switch sets the state kept in the URL, and the request asks `include_bots=true` only then.

function renderSwitch(includeBots: boolean) {
  const update = vi.fn();
  const controller = { params: { includeBots }, update } as unknown as ReportController;
  render(
    <ControlProviders>
      <ReportContext.Provider value={controller}>
        <BotsSwitch />
      </ReportContext.Provider>
    </ControlProviders>,
  );
  return update;
}

describe('BotsSwitch', () => {
  it('is off by default, and switching it on counts bots in', async () => {
    await i18n.changeLanguage('en');
    const update = renderSwitch(false);
    const toggle = screen.getByRole('switch', { name: 'Include bots' });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);
    expect(update.mock.calls).toEqual([[{ includeBots: true }]]);
  });

  it('shows the state it is in, and switches bots back out', async () => {
    await i18n.changeLanguage('en');
    const update = renderSwitch(true);
    const toggle = screen.getByRole('switch', { name: 'Include bots' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    expect(update.mock.calls).toEqual([[{ includeBots: false }]]);
  });

  it('speaks the interface language', async () => {
    await i18n.changeLanguage('ar');
    renderSwitch(false);
    expect(screen.getByRole('switch', { name: 'تضمين الروبوتات' })).toBeInTheDocument();
    await i18n.changeLanguage('en');
  });

  it('asks the server for bots only when they are in', () => {
    const request = { groups: ['campaign'] as const, range: { from: '2026-11-01', to: '2026-11-07' }, timezone: 'UTC' };
    expect(reportQuery(request).include_bots).toBeUndefined();
    expect(reportQuery({ ...request, includeBots: false }).include_bots).toBeUndefined();
    expect(reportQuery({ ...request, includeBots: true }).include_bots).toBe('true');
  });
});
