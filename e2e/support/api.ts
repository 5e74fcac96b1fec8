import { baseURL } from './browser.js';

/** Direct API calls for setting up what a test needs (a user with given permissions, …). */
export async function apiRequest<T>(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${baseURL()}/api/${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function apiLogin(email: string, password: string): Promise<string> {
  const { token } = await apiRequest<{ token: string }>('POST', 'login', undefined, { email, password });
  return token;
}

let counter = 0;

/** A new active user holding exactly `permissions`, created by the administrator. */
export async function createUser(adminToken: string, permissions: string[]) {
  counter += 1;
  const user = {
    name: `E2E User ${counter}`,
    email: `user${counter}-${Date.now()}@e2e.test`,
    password: 'e2e-user-password',
  };
  await apiRequest('POST', 'users', adminToken, { ...user, permissions, roles: [], workspaces: [] });
  return user;
}

/** `/{key}/postback` of the admin's first workspace: where networks send postbacks. */
export async function postbackPath(adminToken: string): Promise<string> {
  const { list } = await apiRequest<{ list: { postback_key: string }[] }>('GET', 'workspaces', adminToken);
  return `/${list[0]?.postback_key}/postback`;
}
