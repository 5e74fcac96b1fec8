import { describe, expect, it } from 'vitest';
import { MENU, visibleMenu } from './menu.js';

const routes = (permissions: string[]) =>
  visibleMenu({ permissions }).flatMap((section) => section.entries.map((entry) => entry.route));
const headings = (permissions: string[]) =>
  visibleMenu({ permissions })
    .filter((section) => section.showHeading)
    .map((section) => section.section);

describe('side menu (§2.3)', () => {
  it('has the 17 entries of the spec, in its order, Live view after Reports, Rules after it, Import after Rules, Currency rates after Workspaces, Backups after Bot protection, Domains after Currency rates, History last', () => {
    expect(MENU.flatMap((section) => section.entries.map((entry) => entry.route))).toEqual([
      '/admin',
      '/admin/flows',
      '/admin/segments',
      '/admin/campaigns',
      '/admin/offers',
      '/tracker/flows',
      '/tracker/segments',
      '/tracker/campaigns',
      '/tracker/offers',
      '/tracker/landers',
      '/tracker/reports',
      '/tracker/live',
      '/tracker/rules',
      '/tracker/imports',
      '/admin/traffic-sources',
      '/admin/affiliate-networks',
      '/admin/events',
      '/admin/postback-events',
      '/admin/workspaces',
      '/admin/currency-rates',
      '/admin/domains',
      '/admin/users',
      '/admin/bot-protection',
      '/admin/backups',
      '/admin/history',
    ]);
  });

  it('shows everything with its headings to an administrator', () => {
    expect(routes(['/'])).toHaveLength(25);
    expect(headings(['/'])).toEqual(['api', 'tracker', 'general']);
  });

  it('shows only Dashboard and API › Offers to a user holding /api/offer/get', () => {
    expect(routes(['/api/offer/get'])).toEqual(['/admin', '/admin/offers', '/admin/history']);
    expect(headings(['/api/offer/get'])).toEqual(['api']);
  });

  it.each([
    // Headings follow §2.3 literally: segments, reports, events, postback events and users do not raise them.
    [['/api/segments/get'], []],
    [['/tracker/reports/get'], []],
    [['/tracker/lander/get'], ['tracker']],
    [['/general/user/get'], []],
    [['/general/event/get'], []],
    [['/general/workspace/get'], ['general']],
    [['/general/affiliate-network'], ['general']],
    [['/tracker'], ['tracker']],
  ])('%j raises headings %j', (permissions, expected) => {
    expect(headings(permissions)).toEqual(expected);
  });

  it("shows Currency rates and Bot protection to the instance's administrators only", () => {
    expect(routes(['/general/workspace/get'])).toEqual(['/admin', '/admin/workspaces', '/admin/history']);
    expect(routes(['/api', '/tracker', '/general'])).not.toContain('/admin/currency-rates');
    expect(routes(['/api', '/tracker', '/general'])).not.toContain('/admin/bot-protection');
    expect(routes(['/instance/settings/get'])).toEqual(['/admin', '/admin/currency-rates', '/admin/bot-protection']);
  });

  it('shows Backups to whoever may change the instance-wide settings, and to nobody who only reads them', () => {
    expect(routes(['/instance/settings/update'])).toContain('/admin/backups');
    expect(routes(['/instance/settings/get'])).not.toContain('/admin/backups');
    // A workspace's administrator is not the instance's.
    expect(routes(['/api', '/tracker', '/general'])).not.toContain('/admin/backups');
  });

  it('shows the rules to whoever may get them, and to nobody else', () => {
    expect(routes(['/tracker/rule/get'])).toEqual(['/admin', '/tracker/rules']);
    expect(routes(['/tracker/reports/get'])).not.toContain('/tracker/rules');
  });

  it('shows the live view to whoever may get reports, and to nobody else', () => {
    expect(routes(['/tracker/reports/get'])).toEqual(['/admin', '/tracker/reports', '/tracker/live']);
    expect(routes(['/tracker/campaign/get'])).not.toContain('/tracker/live');
  });

  it('shows only the Dashboard to a user without permissions (no record is theirs to read, nor its history)', () => {
    expect(routes([])).toEqual(['/admin']);
    expect(routes(['/tracker/reports/get'])).not.toContain('/admin/history');
  });
});
