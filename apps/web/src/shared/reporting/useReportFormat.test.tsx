import type { CurrentUser } from '@switchyard/domain';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenStore, WORKSPACE_STORAGE_KEY, workspaceStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../auth/AuthContext';
import { useReportFormat } from './useReportFormat';

// Money reads at the acting workspace's currency's decimals: yen whole, dinars to the mill.

const USER = {
  id: 1,
  name: 'Ada',
  email: 'ada@example.test',
  permissions: ['/'],
  roles: [],
  workspaces: [
    { id: 1, name: 'Tokyo', currency: 'JPY' },
    { id: 2, name: 'Manama', currency: 'BHD' },
    { id: 3, name: 'Austin', currency: 'USD' },
  ],
  workspace_id: 1,
} as CurrentUser;

function formatIn(workspace: number | null) {
  tokenStore.set('test-token');
  if (workspace === null) workspaceStore.clear();
  else localStorage.setItem(WORKSPACE_STORAGE_KEY, String(workspace));
  const auth = { user: USER } as AuthContextValue;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ControlProviders>
      <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
    </ControlProviders>
  );
  return renderHook(() => useReportFormat(), { wrapper }).result.current;
}

describe('useReportFormat money', () => {
  afterEach(() => {
    workspaceStore.clear();
    tokenStore.clear();
  });

  it.each([
    [null, '1,235', '0.05', '1,235'],
    [2, '1,234.500', '0.04563', '1,234.567'],
    [3, '1,234.50', '0.0456', '1,234.57'],
  ])('in workspace %s: revenue %s, EPC %s, cost %s', (workspace, revenue, epc, cost) => {
    const format = formatIn(workspace);
    expect(format.metric('revenue', 1234.5)).toBe(revenue);
    expect(format.metric('epc', 0.04563)).toBe(epc);
    expect(format.metric('cost', 1234.5671)).toBe(cost);
    // Counts and percentages do not follow the currency.
    expect(format.metric('clicks', 1234)).toBe('1,234');
    expect(format.metric('cr', 12.5)).toBe('12.5%');
  });
});
