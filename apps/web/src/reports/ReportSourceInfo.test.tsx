import type { ReportMeta } from '@switchyard/domain';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { ReportSourceInfo } from './ReportSourceInfo';

// The report's meta names the source that counted it and why (meta.source, meta.source_reason): a small
// icon near the table shows them in a tooltip.

function renderInfo(meta: ReportMeta | undefined) {
  return render(
    <ControlProviders>
      <ReportSourceInfo meta={meta} />
    </ControlProviders>,
  );
}

const REASON = 'DuckDB holds every event and paged the whole report: no rollup keeps subaff.';

describe('ReportSourceInfo', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows which source counted the report, and why, when its icon is pointed at or focused', async () => {
    renderInfo({ labels: {}, source: 'duckdb', source_reason: REASON });
    const icon = screen.getByRole('button', { name: 'Where these figures come from' });
    expect(screen.queryByText(REASON)).toBeNull();
    fireEvent.mouseEnter(icon);
    expect(await screen.findByText('Counted from DuckDB')).toBeInTheDocument();
    expect(screen.getByText(REASON)).toBeInTheDocument();
  });

  it('names each source in the interface language; the reason stays the server’s', async () => {
    await i18n.changeLanguage('fr');
    renderInfo({ source: 'rollups', source_reason: 'The rollups keep every column and filter of this report.' });
    fireEvent.focus(screen.getByRole('button', { name: 'D’où viennent ces chiffres' }));
    expect(await screen.findByText('Compté à partir des agrégats')).toBeInTheDocument();
    expect(screen.getByText('The rollups keep every column and filter of this report.')).toBeInTheDocument();
  });

  it('shows nothing when the answer names no source', () => {
    renderInfo({ labels: { var2: 'Zone' } });
    expect(screen.queryByRole('button')).toBeNull();
    renderInfo(undefined);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
