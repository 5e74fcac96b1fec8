import { TOKEN_STORAGE_KEY } from '@switchyard/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from './client';

// §9 keeps the token in a cookie; issue 22: SameSite=Strict always, Secure when served over HTTPS.

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
