import { TOKEN_STORAGE_KEY } from '@switchyard/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, tokenStore, WORKSPACE_STORAGE_KEY, workspaceStore } from './client';

// §9 keeps the token in a cookie: SameSite=Strict always, Secure when served over HTTPS.

/** What the client writes to document.cookie: the flags are not readable back through it. */
function cookiesWritten(action: () => void): string[] {
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  const written: string[] = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => descriptor?.get?.call(document),
    set: (value: string) => {
      written.push(value);
      descriptor?.set?.call(document, value);
    },
  });
  try {
    action();
  } finally {
    Reflect.deleteProperty(document, 'cookie');
  }
  return written;
}

describe('the token cookie', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  it('is SameSite=Strict and not Secure over HTTP, and holds the token', () => {
    expect(cookiesWritten(() => tokenStore.set('tok/en'))).toEqual(['auth_token=tok%2Fen; path=/; SameSite=Strict']);
    expect(document.cookie).toBe('auth_token=tok%2Fen');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('tok/en');
  });

  it('is SameSite=Strict and Secure over HTTPS, set and cleared alike', () => {
    vi.stubGlobal('location', { ...window.location, protocol: 'https:' });
    expect(cookiesWritten(() => tokenStore.set('token'))).toEqual([
      'auth_token=token; path=/; SameSite=Strict; Secure',
    ]);
    expect(cookiesWritten(() => tokenStore.clear())).toEqual([
      'auth_token=; path=/; max-age=0; SameSite=Strict; Secure',
    ]);
  });

  it('is gone once the token is cleared', () => {
    tokenStore.set('token');
    tokenStore.clear();
    expect(document.cookie).toBe('');
    expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });
});

// The workspace chosen in this browser goes with every request, and a refused one is dropped.
describe('the chosen workspace', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    tokenStore.clear();
  });

  /** A server where the user belongs to workspace `member` only; every request is recorded. */
  function serveMemberOf(member: number) {
    const sent: { url: string; method: string; workspace: string | undefined }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const workspace = (init?.headers as Record<string, string> | undefined)?.['X-Workspace'];
        sent.push({ url: String(input), method: init?.method ?? 'GET', workspace });
        if (workspace !== undefined && workspace !== String(member)) {
          return new Response(JSON.stringify({ message: 'You do not belong to this workspace.' }), { status: 403 });
        }
        if (String(input) === '/api/me') return new Response(JSON.stringify({ workspaces: [{ id: member }] }));
        return new Response(JSON.stringify({ list: [], total: 0 }));
      }),
    );
    return sent;
  }

  it('is sent as X-Workspace when chosen, and not otherwise', async () => {
    tokenStore.set('token');
    const sent = serveMemberOf(1);
    await api('offers');
    workspaceStore.set(1);
    await api('offers');
    expect(sent.map((request) => request.workspace)).toEqual([undefined, '1']);
  });

  it('is dropped when the server refuses it, and a read is asked again in the default workspace', async () => {
    tokenStore.set('token');
    const sent = serveMemberOf(1);
    workspaceStore.set(2);
    await expect(api('offers')).resolves.toEqual({ list: [], total: 0 });
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
    expect(sent).toEqual([
      { url: '/api/offers', method: 'GET', workspace: '2' },
      { url: '/api/me', method: 'GET', workspace: undefined },
      { url: '/api/offers', method: 'GET', workspace: undefined },
    ]);
  });

  it('is dropped when the server refuses a write, which is not sent again elsewhere', async () => {
    tokenStore.set('token');
    const sent = serveMemberOf(1);
    workspaceStore.set(2);
    const error = await api('offers', { method: 'POST', body: { name: 'A' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBeNull();
    expect(sent.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('is kept when a refusal is about a permission in a workspace the user belongs to', async () => {
    tokenStore.set('token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === '/api/me'
          ? new Response(JSON.stringify({ workspaces: [{ id: 2 }] }))
          : new Response(JSON.stringify({ message: 'Forbidden' }), { status: 403 }),
      ),
    );
    workspaceStore.set(2);
    await expect(api('users')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem(WORKSPACE_STORAGE_KEY)).toBe('2');
  });
});
