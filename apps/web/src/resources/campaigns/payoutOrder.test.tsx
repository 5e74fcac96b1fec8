import type { CurrentUser } from '@switchyard/domain';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import i18n from '../../i18n';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { trackerCampaignScreens } from './screens';

// The campaign screen says in one sentence how a conversion's payout is chosen — the
// order the engine follows (rule, the event's default, the network's amount, the offer's payout).

describe('the tracker campaign form', () => {
  afterEach(async () => {
    vi.unstubAllGlobals();
    tokenStore.clear();
    await act(() => i18n.changeLanguage('en'));
  });

  it.each([
    [
      'en',
      "A conversion's payout is the first payout rule of its postback event whose condition matches, else that event's default payout; for an event without payout rules, the amount the network sends, else the offer's payout.",
    ],
    [
      'ar',
      'عائد التحويل هو أول قاعدة عائد لحدث الإشعار الراجع يطابق شرطها، وإلا العائد الافتراضي لذلك الحدث؛ ولحدث بلا قواعد عائد، المبلغ الذي ترسله الشبكة، وإلا عائد العرض.',
    ],
  ])('explains the payout order beside the payout rules (%s)', async (language, sentence) => {
    await act(() => i18n.changeLanguage(language));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ list: [], total: 0 }))),
    );
    tokenStore.set('test-token');
    const auth = { user: { id: 1, name: 'Ada', permissions: ['/'], workspaces: [] } as unknown as CurrentUser };
    const { Create } = trackerCampaignScreens;
    render(
      <ControlProviders>
        <AuthContext.Provider value={auth as AuthContextValue}>
          <MemoryRouter initialEntries={['/tracker/campaigns/create']}>
            <Routes>
              <Route path="/tracker/campaigns/create" element={<Create />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ControlProviders>,
    );
    expect(await screen.findByText(sentence)).toBeVisible();
  });
});
