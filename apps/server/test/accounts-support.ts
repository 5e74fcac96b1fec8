import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer } from './harness.js';

// Shared by the account suites: short calls to the account endpoints.

let counter = 0;

/** A unique address per call, so that per-email limits of one test never touch another. */
export function uniqueEmail(label = 'person'): string {
  counter += 1;
  return `${label}${counter}-${Math.random().toString(36).slice(2, 8)}@accounts.test`;
}

let ipCounter = 0;

/** A unique client address per call, so that per-IP limits of one test never touch another. */
export function uniqueIp(): string {
  ipCounter += 1;
  return `10.60.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export const STRONG_PASSWORD = 'correct horse battery';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function post(
  app: FastifyInstance,
  url: string,
  payload: unknown,
  options: { token?: string; ip?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/${url}`,
    payload: payload as Record<string, unknown>,
    headers: options.token ? bearer(options.token) : {},
    remoteAddress: options.ip ?? uniqueIp(),
  });
}

export function get(app: FastifyInstance, url: string, token?: string) {
  return app.inject({ method: 'GET', url: `/api/${url}`, headers: token ? bearer(token) : {} });
}

export function put(app: FastifyInstance, url: string, payload: unknown, token: string) {
  return app.inject({
    method: 'PUT',
    url: `/api/${url}`,
    payload: payload as Record<string, unknown>,
    headers: bearer(token),
  });
}

export async function setRegistration(
  app: FastifyInstance,
  adminToken: string,
  settings: { registration_enabled: boolean; registration_role_id?: number | null },
): Promise<void> {
  const response = await put(app, 'account-settings', settings, adminToken);
  expect(response.statusCode, response.body).toBe(200);
}

/** Status and body of a token that is not accepted: the same for wrong, expired, used and revoked ones. */
export function expectInvalidLink(response: { statusCode: number; body: string }): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(JSON.parse(response.body)).toEqual({
    message: 'This link is invalid or has expired',
    errors: { token: ['This link is invalid or has expired'] },
  });
}

export async function expectSessionAlive(app: FastifyInstance, token: string, alive: boolean): Promise<void> {
  const response = await get(app, 'me', token);
  expect(response.statusCode, response.body).toBe(alive ? 200 : 401);
}
