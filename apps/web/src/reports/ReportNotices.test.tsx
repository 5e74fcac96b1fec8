import { useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ControlProviders } from '../components/form/controls/renderControl';
import i18n from '../i18n';
import { ReportNotices } from './ReportNotices';

// Clicks through an untrusted proxy all look like the proxy; the reports screen names
// the setting that fixes it, and shows nothing when the server saw no such click.

describe('ReportNotices', () => {
  let notices: unknown[];
  beforeEach(async () => {
    notices = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        expect(url).toBe('/api/reports/notices');
        return new Response(JSON.stringify({ notices }), { status: 200 });
      }),
    );
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  const renderNotices = () =>
    render(
      <ControlProviders>
        <ReportNotices />
      </ControlProviders>,
    );

  it('names SWITCHYARD_TRUST_PROXY and the proxy seen, in English and Arabic', async () => {
    notices = [
      {
        code: 'untrusted_proxy',
        peer: '10.0.0.2',
        last_seen_at: '2026-11-24T08:00:00.000Z',
        setting: 'SWITCHYARD_TRUST_PROXY',
      },
    ];
    await i18n.changeLanguage('en');
    const { unmount } = renderNotices();
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent(
      "Clicks arrive through a proxy at 10.0.0.2 that is not trusted: every visitor looks like the proxy, so countries are missing and geo rules never match. Set SWITCHYARD_TRUST_PROXY to the proxy's address (or true) and restart.",
    );
    unmount();
    await i18n.changeLanguage('ar');
    renderNotices();
    const arabic = await screen.findByRole('status');
    expect(arabic).toHaveTextContent(/SWITCHYARD_TRUST_PROXY/);
    expect(arabic).toHaveTextContent(/وكيل غير موثوق/);
  });

  it('shows nothing without a notice', async () => {
    // A reader of the same query beside it: once it shows the answer, the notices rendered from that answer
    // too (one commit), so their absence is an answer and not a wait that ended early.
    function AnswerRead() {
      const { data } = useQuery<{ notices: unknown[] }>({ queryKey: ['reports', 'notices'], enabled: false });
      return data ? <p>{`${data.notices.length} notices read`}</p> : null;
    }
    render(
      <ControlProviders>
        <ReportNotices />
        <AnswerRead />
      </ControlProviders>,
    );
    expect(await screen.findByText('0 notices read')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByText(/SWITCHYARD_TRUST_PROXY/)).toBeNull();
  });
});
