import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('settings from the environment', () => {
  it('uses port 3000 and ./data by default', () => {
    const config = loadConfig({ INIT_CWD: '/srv/switchyard' });
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/switchyard/data');
    expect(config.databaseUrl).toBeUndefined();
  });

  it('refuses a first-administrator password shorter than the password rule', () => {
    expect(() => loadConfig({ SWITCHYARD_ADMIN_EMAIL: 'a@b.co', SWITCHYARD_ADMIN_PASSWORD: 'short' })).toThrow(
      /SWITCHYARD_ADMIN_PASSWORD must be at least 8 characters/,
    );
  });

  it('refuses a first-administrator email that is not an address', () => {
    expect(() => loadConfig({ SWITCHYARD_ADMIN_EMAIL: 'admin', SWITCHYARD_ADMIN_PASSWORD: 'long-enough' })).toThrow(
      /SWITCHYARD_ADMIN_EMAIL must be an email address/,
    );
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/x' })).toThrow(/DATABASE_URL/);
  });
});
