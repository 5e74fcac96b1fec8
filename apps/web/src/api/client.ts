// The one HTTP client of the dashboard (§7, §8). Components never call fetch directly.
import {
  type ApiErrorBody,
  AUTH_TOKEN_PREFIX,
  CURRENT_USER_STORAGE_KEY,
  ERROR_MESSAGES,
  type ListResponse,
  TOKEN_STORAGE_KEY,
} from '@switchyard/domain';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  /** `errors[field][0]` for each field (§5.1). */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body.errors ?? {})) {
      if (messages[0]) errors[field] = messages[0];
    }
    return errors;
  }
}

const TOKEN_COOKIE = 'auth_token';

/**
 * The §9 token cookie. The server never takes it as a credential (only the Authorization header), so
 * it is no CSRF door; SameSite=Strict and Secure over HTTPS keep it from leaving with other requests.
 */
function tokenCookie(value: string, lifetime = ''): string {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  return `${TOKEN_COOKIE}=${value}; path=/${lifetime}; SameSite=Strict${secure}`;
}

/** §9: the token is kept in a cookie and in local storage. */
export const tokenStore = {
  get(): string | null {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  },
  set(token: string): void {
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    // biome-ignore lint/suspicious/noDocumentCookie: §9 keeps the token in a cookie too.
    document.cookie = tokenCookie(encodeURIComponent(token));
  },
  clear(): void {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
    localStorage.removeItem(CURRENT_USER_STORAGE_KEY);
    // biome-ignore lint/suspicious/noDocumentCookie: §9 keeps the token in a cookie too.
    document.cookie = tokenCookie('', '; max-age=0');
  },
};

export const WORKSPACE_STORAGE_KEY = 'switchyard.workspace';
const WORKSPACE_HEADER = 'X-Workspace';

const workspaceListeners = new Set<() => void>();

/**
 * The workspace chosen in this browser, sent as `X-Workspace` on every /api request; none
 * chosen, the server acts in the user's default one. Other tabs of the browser share the choice.
 */
export const workspaceStore = {
  get(): number | null {
    try {
      const stored = localStorage.getItem(WORKSPACE_STORAGE_KEY);
      const id = Number(stored);
      return stored && Number.isSafeInteger(id) && id > 0 ? id : null;
    } catch {
      return null;
    }
  },
  set(id: number): void {
    if (workspaceStore.get() === id) return;
    localStorage.setItem(WORKSPACE_STORAGE_KEY, String(id));
    for (const listener of [...workspaceListeners]) listener();
  },
  /** Back to the user's default workspace. */
  clear(): void {
    if (workspaceStore.get() === null) return;
    localStorage.removeItem(WORKSPACE_STORAGE_KEY);
    for (const listener of [...workspaceListeners]) listener();
  },
  /** Calls `listener` on every change of the choice, in this tab or another; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    const onStorage = (event: StorageEvent) => {
      if (event.key === WORKSPACE_STORAGE_KEY || event.key === null) listener();
    };
    workspaceListeners.add(listener);
    window.addEventListener('storage', onStorage);
    return () => {
      workspaceListeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },
};

let pendingMembershipCheck: Promise<boolean> | null = null;

/**
 * Whether the user still belongs to the workspace `id`, asked without naming any workspace (a request
 * naming one they were removed from is refused, /api/me included). Concurrent refusals share one check.
 */
function stillMember(id: number): Promise<boolean> {
  pendingMembershipCheck ??= api<{ workspaces?: { id: number }[] }>('me', { workspace: 'default' })
    .then((me) => (me.workspaces ?? []).some((workspace) => workspace.id === id))
    .catch(() => true)
    .finally(() => {
      pendingMembershipCheck = null;
    });
  return pendingMembershipCheck;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** §4, §8: a 401 from any call logs the user out and goes to /login. The auth provider sets this. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** 'default': act in the user's default workspace, whatever this browser chose. */
  workspace?: 'chosen' | 'default';
  /** A body sent as it is (a lander's ZIP) with its own media type, instead of `body` as JSON. */
  raw?: { body: Blob; type: string };
  /** The media type asked for: lists ask for JSON-LD (§7). */
  accept?: typeof JSON_MEDIA_TYPE | typeof LIST_MEDIA_TYPE;
}

export const JSON_MEDIA_TYPE = 'application/json';
/** §7: "List requests ask for the ld+json media type, and responses are read as list and total." */
export const LIST_MEDIA_TYPE = 'application/ld+json';

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `/api/${path.replace(/^\/+/, '')}${search ? `?${search}` : ''}`;
}

/** Who is asking, and in which workspace: the headers of every /api request (the live stream's too). */
export function actingHeaders(workspace: number | null = workspaceStore.get()): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = tokenStore.get();
  if (token) headers.Authorization = `${AUTH_TOKEN_PREFIX} ${token}`;
  if (workspace !== null) headers[WORKSPACE_HEADER] = String(workspace);
  return headers;
}

/** §8: tells the auth provider of a 401 met outside `api()` (the live stream), so it logs the user out. */
export function reportUnauthorized(): void {
  onUnauthorized();
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const token = tokenStore.get();
  const workspace = options.workspace === 'default' ? null : workspaceStore.get();
  const headers: Record<string, string> = { Accept: options.accept ?? JSON_MEDIA_TYPE, ...actingHeaders(workspace) };
  if (options.raw) headers['Content-Type'] = options.raw.type;
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body: options.raw ? options.raw.body : options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text };
    }
  }
  if (!response.ok) {
    if (response.status === 401 && token) onUnauthorized();
    // A 403 in a chosen workspace the user no longer belongs to: back to their default one, no dead end.
    // A read is asked again there; a write is not, as it was meant for the workspace that refused it.
    if (response.status === 403 && workspace !== null && token && !(await stillMember(workspace))) {
      if (workspaceStore.get() === workspace) workspaceStore.clear();
      if ((options.method ?? 'GET') === 'GET') return api<T>(path, options);
    }
    const body = (data && typeof data === 'object' ? data : {}) as Partial<ApiErrorBody>;
    throw new ApiError(response.status, {
      message: body.message || response.statusText || ERROR_MESSAGES.internal,
      errors: body.errors,
    });
  }
  return data as T;
}

/** A list call (§7, §7.2): asks for the ld+json media type; the answer is read as `list` and `total`. */
export function apiList<T>(path: string, options: Omit<RequestOptions, 'accept'> = {}): Promise<ListResponse<T>> {
  return api<ListResponse<T>>(path, { ...options, accept: LIST_MEDIA_TYPE });
}

/** A file the API answers (a backup): its bytes, or the API's error. */
export async function apiFile(path: string): Promise<Blob> {
  const response = await fetch(buildUrl(path), { headers: actingHeaders() });
  if (response.ok) return response.blob();
  const text = await response.text();
  let body: Partial<ApiErrorBody> = {};
  try {
    body = JSON.parse(text) as Partial<ApiErrorBody>;
  } catch {
    body = { message: text };
  }
  throw new ApiError(response.status, {
    message: body.message || response.statusText || ERROR_MESSAGES.internal,
    errors: body.errors,
  });
}
