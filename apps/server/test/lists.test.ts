import { DEFAULT_PAGE_SIZE, SEED_ROLES } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUserWithPermissions,
  expectError,
  expectNoSecrets,
  forEachDatabase,
  type TestUser,
  useSeededApp,
} from './harness.js';

interface Named {
  id: number;
  name: string;
}

// Names chosen so that searches have known answers: LIKE wildcards must match themselves only.
const WORKSPACE_NAMES = [
  'Alpha North',
  'alpha south',
  'ALPHA East',
  'Beta',
  '100% Organic',
  'under_score',
  'back\\slash',
  "O'Brien",
];
const FILLER_WORKSPACES = DEFAULT_PAGE_SIZE; // enough to need a second page at the default size

forEachDatabase('lists', (db) => {
  const ctx = useSeededApp(db);
  const users: TestUser[] = [];

  async function list(apiPath: string, query = '') {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/${apiPath}${query ? `?${query}` : ''}`,
      headers: bearer(ctx.adminToken),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ list: Named[]; total: number }>();
    expect(Object.keys(body).sort()).toEqual(['list', 'total']);
    expect(Array.isArray(body.list)).toBe(true);
    expect(typeof body.total).toBe('number');
    return body;
  }

  beforeAll(async () => {
    for (const name of WORKSPACE_NAMES) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: bearer(ctx.adminToken),
        payload: { name },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    for (let index = 0; index < FILLER_WORKSPACES; index += 1) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: bearer(ctx.adminToken),
        payload: { name: `Filler ${String(index).padStart(3, '0')}` },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    for (const name of ['Searchable Sam', 'Searchable Sue', 'Other Olga']) {
      users.push(await createUserWithPermissions(ctx.app, ctx.adminToken, [], { name }));
    }
  });

  const totalWorkspaces = 1 + WORKSPACE_NAMES.length + FILLER_WORKSPACES; // with the seeded "Default"

  describe('paging', () => {
    it(`answers the first ${DEFAULT_PAGE_SIZE} by default, with the total of all`, async () => {
      const body = await list('workspaces');
      expect(body.total).toBe(totalWorkspaces);
      expect(body.list).toHaveLength(DEFAULT_PAGE_SIZE);
      expect(body.list[0]!.name).toBe('Default');
    });

    it('walks pages of `limit` records without gaps or repeats', async () => {
      const limit = 7;
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(totalWorkspaces / limit); page += 1) {
        const body = await list('workspaces', `page=${page}&limit=${limit}`);
        expect(body.total).toBe(totalWorkspaces);
        expect(body.list.length).toBe(Math.min(limit, totalWorkspaces - (page - 1) * limit));
        seen.push(...body.list.map((workspace) => workspace.id));
      }
      expect(new Set(seen).size).toBe(totalWorkspaces);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    });

    it('answers an empty page past the end, still with the total', async () => {
      const body = await list('workspaces', 'page=1000&limit=10');
      expect(body).toEqual({ list: [], total: totalWorkspaces });
      const far = await list('workspaces', 'page=9007199254740991&limit=1000');
      expect(far).toEqual({ list: [], total: totalWorkspaces });
    });

    it('limit=0 answers every record', async () => {
      const body = await list('workspaces', 'limit=0');
      expect(body.total).toBe(totalWorkspaces);
      expect(body.list).toHaveLength(totalWorkspaces);
      const paged = await list('workspaces', 'limit=0&page=3');
      expect(paged.list).toHaveLength(totalWorkspaces);
    });

    it('roles: page and limit; limit=0 answers all seeded roles', async () => {
      const all = await list('roles', 'limit=0');
      expect(all.total).toBe(SEED_ROLES.length);
      expect(all.list.map((role) => role.name)).toEqual(SEED_ROLES.map((role) => role.name));
      const second = await list('roles', 'page=2&limit=1');
      expect(second).toMatchObject({ total: SEED_ROLES.length, list: [{ name: SEED_ROLES[1]!.name }] });
    });

    it('users: page and limit, without any password or hash', async () => {
      const all = await list('users', 'limit=0');
      expect(all.total).toBe(1 + users.length);
      expectNoSecrets(JSON.stringify(all), [ctx.adminToken, ...users.flatMap((user) => [user.token, user.password])]);
      const page = await list('users', 'page=2&limit=2');
      expect(page.total).toBe(1 + users.length);
      expect(page.list.map((user) => user.id)).toEqual(all.list.slice(2, 4).map((user) => user.id));
    });
  });

  describe('search', () => {
    it('matches names case-insensitively; the total counts the matches only', async () => {
      const body = await list('workspaces', 'search=ALPHA');
      expect(body.total).toBe(3);
      expect(body.list.map((workspace) => workspace.name)).toEqual(['Alpha North', 'alpha south', 'ALPHA East']);
    });

    it('combines with paging', async () => {
      const body = await list('workspaces', 'search=alpha&page=2&limit=2');
      expect(body).toMatchObject({ total: 3, list: [{ name: 'ALPHA East' }] });
      const filler = await list('workspaces', 'search=filler&limit=0');
      expect(filler.total).toBe(FILLER_WORKSPACES);
      expect(filler.list).toHaveLength(FILLER_WORKSPACES);
    });

    it('trims the search text; an empty search matches everything', async () => {
      expect((await list('workspaces', 'search=%20%20beta%20')).list.map((w) => w.name)).toEqual(['Beta']);
      expect((await list('workspaces', 'search=')).total).toBe(totalWorkspaces);
    });

    it('takes LIKE wildcards and quotes literally', async () => {
      expect((await list('workspaces', `search=${encodeURIComponent('%')}`)).list.map((w) => w.name)).toEqual([
        '100% Organic',
      ]);
      expect((await list('workspaces', `search=${encodeURIComponent('_')}`)).list.map((w) => w.name)).toEqual([
        'under_score',
      ]);
      expect((await list('workspaces', `search=${encodeURIComponent('\\')}`)).list.map((w) => w.name)).toEqual([
        'back\\slash',
      ]);
      expect((await list('workspaces', `search=${encodeURIComponent("o'b")}`)).list.map((w) => w.name)).toEqual([
        "O'Brien",
      ]);
    });

    it('answers an empty list when nothing matches', async () => {
      expect(await list('workspaces', 'search=zzz-nothing')).toEqual({ list: [], total: 0 });
    });

    it('users: by name or by email', async () => {
      const byName = await list('users', 'search=searchable');
      expect(byName.total).toBe(2);
      expect(byName.list.map((user) => user.name)).toEqual(['Searchable Sam', 'Searchable Sue']);
      const target = users[2]!;
      const byEmail = await list('users', `search=${encodeURIComponent(target.email.split('@')[0]!.toUpperCase())}`);
      expect(byEmail.list.map((user) => user.id)).toEqual([target.id]);
    });
  });

  describe('invalid queries: 400 naming the parameter', () => {
    for (const [query, field] of [
      ['limit=-1', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1000000', 'limit'],
      ['page=0', 'page'],
      ['page=-3', 'page'],
      ['page=x', 'page'],
      ['status=deleted', 'status'],
      ['page=1&page=2', 'page'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ] as const) {
      it(query.length > 40 ? `${query.slice(0, 30)}…` : query, async () => {
        const response = await ctx.app.inject({
          method: 'GET',
          url: `/api/workspaces?${query}`,
          headers: bearer(ctx.adminToken),
        });
        expect(expectError(response, 400).errors?.[field]?.length).toBeGreaterThan(0);
      });
    }
  });
});
