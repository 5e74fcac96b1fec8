import { ModalsProvider } from '@mantine/modals';
import type { CurrentUser } from '@switchyard/domain';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { tokenStore } from '../api/client';
import { ControlProviders } from '../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../shared/auth/AuthContext';
import { RuleEditScreen } from './RuleEditScreen';
import { RulesScreen } from './RulesScreen';

export const RULE_ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/tracker'] };

export type Call = { method: string; path: string; body: unknown };
type Answer = { status?: number; body: unknown };

/**
 * The server's answers by "METHOD path" (below /api, without the query); anything else answers an empty list.
 * Returns the calls made, with their bodies, to check what was sent.
 */
export function answer(routes: Record<string, Answer | ((call: Call) => Answer)>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const call = {
        method,
        path: url.pathname.replace(/^\/api\//, ''),
        body: init?.body ? JSON.parse(String(init.body)) : null,
      };
      calls.push(call);
      const route = routes[`${method} ${call.path}`];
      const { status = 200, body } =
        typeof route === 'function' ? route(call) : (route ?? { body: { list: [], total: 0 } });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** The rules' screens at `path`, as the router places them, for a user holding `permissions`. */
export function renderRules(path: string, user: object = RULE_ADMIN) {
  tokenStore.set('test-token');
  const auth = { user: user as unknown as CurrentUser } as AuthContextValue;
  return render(
    <ControlProviders>
      <ModalsProvider>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/tracker/rules" element={<RulesScreen />} />
              <Route path="/tracker/rules/new" element={<RuleEditScreen />} />
              <Route path="/tracker/rules/edit/:id" element={<RuleEditScreen />} />
            </Routes>
          </MemoryRouter>
        </AuthContext.Provider>
      </ModalsProvider>
    </ControlProviders>,
  );
}
