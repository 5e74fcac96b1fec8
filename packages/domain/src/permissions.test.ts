import { describe, expect, it } from 'vitest';
import {
  allPermissions,
  can,
  covers,
  grantingPermissions,
  isKnownPermission,
  normalizePermissions,
  ungrantable,
} from './permissions.js';

const holder = (...permissions: string[]) => ({ permissions });

describe('can (§6)', () => {
  it.each([
    // [held, section, resource, action, expected]
    [['/'], 'api', 'offer', 'get', true],
    [['/api'], 'api', 'offer', 'archive', true],
    [['/api/offer'], 'api', 'offer', 'create', true],
    [['/api/offer/get'], 'api', 'offer', 'get', true],
    [['/api/offer/get'], 'api', 'offer', 'update', false],
    [['/api/offer/get'], 'tracker', 'offer', 'get', false],
    [['/api/flow'], 'api', 'offer', 'get', false],
    [['/tracker'], 'api', 'offer', 'get', false],
    [['/general/user/get'], 'general', 'user', 'get', true],
    [['/general/use'], 'general', 'user', 'get', false],
    [['/tracker/reports/get'], 'tracker', 'reports', 'get', true],
    // Money is its own action of reports, granted by the root, the section and the resource.
    [['/tracker/reports/get'], 'tracker', 'reports', 'money', false],
    [['/tracker/reports/money'], 'tracker', 'reports', 'money', true],
    [['/tracker/reports/money'], 'tracker', 'reports', 'get', false],
    [['/tracker/reports'], 'tracker', 'reports', 'money', true],
    [['/tracker'], 'tracker', 'reports', 'money', true],
    [['/'], 'tracker', 'reports', 'money', true],
    [['/api'], 'tracker', 'reports', 'money', false],
    [[], 'api', 'offer', 'get', false],
    // The instance's settings are granted by the root or their own section, never by every
    // workspace section held together.
    [['/'], 'instance', 'settings', 'update', true],
    [['/instance'], 'instance', 'settings', 'update', true],
    [['/instance/settings/get'], 'instance', 'settings', 'update', false],
    [['/api', '/tracker', '/general'], 'instance', 'settings', 'get', false],
    [['/general/workspace', '/general/user'], 'instance', 'settings', 'update', false],
  ] as const)('%j on %s/%s/%s → %s', (held, section, resource, action, expected) => {
    expect(can(holder(...held), section, resource, action)).toBe(expected);
  });

  it('refuses a missing user', () => {
    expect(can(null, 'api', 'offer', 'get')).toBe(false);
    expect(can(undefined, 'api')).toBe(false);
  });

  it('checks a whole section without resource or action', () => {
    expect(can(holder('/api'), 'api')).toBe(true);
    expect(can(holder('/api/offer'), 'api')).toBe(false);
  });

  it('lists the granting strings from the root down', () => {
    expect(grantingPermissions('api', 'offer', 'get')).toEqual(['/', '/api', '/api/offer', '/api/offer/get']);
  });
});

describe('permission catalogue', () => {
  it('knows every string of §6 and nothing else', () => {
    const all = allPermissions();
    expect(all).toContain('/');
    expect(all).toContain('/tracker/lander/archive');
    expect(all).toContain('/tracker/reports/get');
    expect(all).toContain('/tracker/reports/money');
    expect(all).toContain('/instance/settings/update');
    expect(all).not.toContain('/tracker/reports/create');
    expect(all).not.toContain('/tracker/offer/money');
    expect(all).not.toContain('/api/campaign/money');
    expect(all).not.toContain('/general/user/archive');
    expect(all).not.toContain('/general/workspace/archive');
    expect(new Set(all).size).toBe(all.length);
    expect(isKnownPermission('/api/offer/get')).toBe(true);
    expect(isKnownPermission('/api/offer/delete')).toBe(false);
    expect(isKnownPermission('/api/offers')).toBe(false);
  });
});

describe('granting (nobody grants what they do not hold)', () => {
  it.each([
    ['/', '/api/offer/get', true],
    ['/api', '/api/offer/get', true],
    ['/api/offer', '/api/offer', true],
    ['/api/offer/get', '/api/offer', false],
    ['/api/offer', '/api/offers', false],
    ['/api/offer/get', '/', false],
  ])('%s covers %s → %s', (held, wanted, expected) => {
    expect(covers(held, wanted)).toBe(expected);
  });

  it('returns what the granter lacks', () => {
    expect(ungrantable(holder('/api'), ['/api/offer/get', '/tracker', '/'])).toEqual(['/tracker', '/']);
    expect(ungrantable(holder('/'), ['/api', '/tracker'])).toEqual([]);
    // A workspace's administrator cannot make an instance administrator.
    expect(ungrantable(holder('/api', '/tracker', '/general'), ['/instance/settings/update'])).toEqual([
      '/instance/settings/update',
    ]);
  });

  it('normalizes to the most general strings', () => {
    expect(normalizePermissions(['/api/offer/get', '/api', '/tracker/flow/get', '/api'])).toEqual([
      '/api',
      '/tracker/flow/get',
    ]);
    expect(normalizePermissions(['/api/offer', '/'])).toEqual(['/']);
  });
});
