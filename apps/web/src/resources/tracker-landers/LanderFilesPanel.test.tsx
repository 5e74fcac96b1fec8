import { language } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import type { CurrentUser } from '@switchyard/domain';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../../api/client';
import { ControlProviders } from '../../components/form/controls/renderControl';
import { AuthContext, type AuthContextValue } from '../../shared/auth/AuthContext';
import { LanderFilesPanel } from './LanderFilesPanel';

const ADMIN = { id: 1, name: 'Ada', email: 'ada@example.test', permissions: ['/'], workspaces: [] };
const WHEN = '2026-11-28T08:00:00.000Z';
const FILES = {
  list: [
    {
      path: 'css/site.css',
      content_type: 'text/css; charset=utf-8',
      size: 23,
      sha256: 'a',
      editable: true,
      updated_at: WHEN,
    },
    { path: 'img/logo.png', content_type: 'image/png', size: 2048, sha256: 'b', editable: false, updated_at: WHEN },
  ],
  total: 2,
  served_at: '/l/Lander123456/',
};

function answer() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url === '/api/tracker/landers/Lander123456/files' && init?.method === 'POST') {
      return new Response(
        JSON.stringify({
          message: 'The ZIP cannot be used as a lander',
          errors: { file: ['send.php: PHP landers are refused. PHP is never executed here'] },
        }),
        { status: 400 },
      );
    }
    if (url === '/api/tracker/landers/Lander123456/files' && init?.method === 'PUT') {
      return new Response(JSON.stringify({ ...FILES.list[0], size: 19 }));
    }
    if (url.startsWith('/api/tracker/landers/Lander123456/files/content')) {
      return new Response(JSON.stringify({ ...FILES.list[0], content: 'body { color: #123456 }' }));
    }
    if (url === '/api/tracker/landers/Lander123456/files') return new Response(JSON.stringify(FILES));
    return new Response(JSON.stringify({ list: [], total: 0 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderPanel() {
  tokenStore.set('test-token');
  return render(
    <ControlProviders>
      <AuthContext.Provider value={{ user: ADMIN as unknown as CurrentUser } as AuthContextValue}>
        <MemoryRouter>
          <LanderFilesPanel id="Lander123456" />
        </MemoryRouter>
      </AuthContext.Provider>
    </ControlProviders>,
  );
}

describe('a lander’s hosted files', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('lists the files, where they are served, and a sandboxed preview', async () => {
    answer();
    renderPanel();
    expect(await screen.findByText('css/site.css')).toBeVisible();
    expect(screen.getByText('img/logo.png')).toBeVisible();
    expect(screen.getByText('/l/Lander123456/')).toBeVisible();
    // Only the text file can be edited.
    expect(screen.getAllByRole('button', { name: 'Edit' })).toHaveLength(1);
    const preview = screen.getByTitle('Preview');
    expect(preview.getAttribute('src')).toBe('/l/Lander123456/');
    expect(preview.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
  });

  it('edits a text file in the code editor, saves it with PUT, then refreshes the preview', async () => {
    const fetchMock = answer();
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    // The editor is CodeMirror's contenteditable, named by the file's path, and always left to right.
    const editor = await screen.findByLabelText('css/site.css');
    expect(editor).toHaveClass('cm-content');
    expect(editor.closest('[dir]')?.getAttribute('dir')).toBe('ltr');
    await waitFor(() => expect(editor).toHaveTextContent('body { color: #123456 }'));
    const view = EditorView.findFromDOM(editor);
    if (!view) throw new Error('no editor view');
    // Its language, by the file's extension, comes in a chunk of its own.
    await waitFor(() => expect(view.state.facet(language)?.name).toBe('css'));
    // An edit as typing makes it: a change in the middle of the document.
    const at = view.state.doc.toString().indexOf('#123456');
    act(() => view.dispatch({ changes: { from: at, to: at + '#123456'.length, insert: 'red' }, userEvent: 'input' }));
    const previewBefore = screen.getByTitle('Preview');
    fireEvent.click(screen.getByRole('button', { name: 'Save file' }));
    expect(await screen.findByText('Saved.')).toBeVisible();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ path: 'css/site.css', content: 'body { color: red }' });
    // The preview is loaded again, so it shows the file as now served.
    await waitFor(() => expect(screen.getByTitle('Preview')).not.toBe(previewBefore));
  });

  it('uploads a ZIP as the body, and shows why one is refused, naming the file', async () => {
    const fetchMock = answer();
    const { container } = renderPanel();
    await screen.findByText('css/site.css');
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const zip = new File([new Uint8Array([80, 75, 3, 4])], 'lander.zip', { type: 'application/zip' });
    fireEvent.change(input, { target: { files: [zip] } });
    expect(await screen.findByText(/send\.php: PHP landers are refused/)).toBeVisible();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[1]?.body).toBe(zip);
    expect((post?.[1]?.headers as Record<string, string> | undefined)?.['Content-Type']).toBe('application/zip');
  });
});
