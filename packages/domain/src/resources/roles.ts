import type { z } from 'zod';
import type { ZRoleAnswer } from '../api-answers/accounts.js';
import { defineResource } from './types.js';

export type Role = z.infer<typeof ZRoleAnswer>;

/** The seeded roles; an administrator gives users these, plus permissions of their own. */
export const SEED_ROLES: readonly { name: string; permissions: string[] }[] = [
  { name: 'Administrator', permissions: ['/'] },
  {
    name: 'API manager',
    permissions: [
      '/api',
      '/general/traffic-source',
      '/general/affiliate-network',
      '/general/event',
      '/general/postback-event',
    ],
  },
  {
    name: 'Tracker manager',
    permissions: [
      '/tracker',
      '/general/traffic-source',
      '/general/affiliate-network',
      '/general/event',
      '/general/postback-event',
    ],
  },
  {
    name: 'Analyst',
    permissions: [
      '/api/flow/get',
      '/api/campaign/get',
      '/api/offer/get',
      '/api/segments/get',
      '/tracker/flow/get',
      '/tracker/campaign/get',
      '/tracker/offer/get',
      '/tracker/lander/get',
      '/tracker/segments/get',
      '/tracker/reports/get',
      '/general/traffic-source/get',
      '/general/affiliate-network/get',
      '/general/event/get',
      '/general/postback-event/get',
    ],
  },
];

export const roles = defineResource({
  name: 'roles',
  apiPath: 'roles',
  route: null,
  idField: 'id',
  permission: { section: 'general', resource: 'role' },
  archivable: false,
  menuSection: null,
  lookup: { value: 'id', label: 'name' },
});
