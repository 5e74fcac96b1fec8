import { VALIDATION_MESSAGES } from '@switchyard/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { get, post, put, STRONG_PASSWORD, uniqueEmail } from './accounts-support.js';
import {
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  type TestUser,
  useSeededApp,
} from './harness.js';

// Users, invitations and the workspaces themselves are managed per workspace. A is the seeded
// Default workspace, B a second one; B's administrator (the whole /general section, not root) belongs to
// B only, a member of A to A only, and the seeded administrator holds the root permission.

interface Me {
  id: number;
  workspaces: { id: number; name: string }[];
  workspace_id: number | null;
}

interface UserRecord {
  id: number;
  email: string;
  workspaces: number[];
}

interface InvitationRecord {
  id: number;
  email: string;
  workspaces: number[];
  status: string;
}

forEachDatabase('workspace members', (db) => {
  const ctx = useSeededApp(db);
  let workspaceA: number;
  let workspaceB: number;
  let adminOfB: TestUser;
  let memberOfA: TestUser;
  let rootId: number;

  beforeAll(async () => {
    const me = (await get(ctx.app, 'me', ctx.adminToken)).json<Me>();
    rootId = me.id;
    workspaceA = me.workspaces[0]!.id;
    const created = await post(ctx.app, 'workspaces', { name: 'Client B' }, { token: ctx.adminToken });
    expect(created.statusCode, created.body).toBe(201);
    workspaceB = created.json<{ id: number }>().id;
    adminOfB = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general'], {
      workspaces: [workspaceB],
      name: 'Admin of B',
    });
    memberOfA = await createUserWithPermissions(ctx.app, ctx.adminToken, ['/general/workspace/get'], {
      name: 'Member of A',
    });
  });

  const as = (user: { token: string }) => user.token;
  const ids = (list: { id: number }[]) => list.map((item) => item.id);

  describe('GET /api/me', () => {
    it('names the workspaces to switch to and the one acted in', async () => {
      const root = (await get(ctx.app, 'me', ctx.adminToken)).json<Me>();
      expect(ids(root.workspaces)).toEqual([workspaceA, workspaceB]);
      expect(root.workspace_id).toBe(workspaceA);

      const b = (await get(ctx.app, 'me', as(adminOfB))).json<Me>();
      expect(b.workspaces).toEqual([{ id: workspaceB, name: 'Client B', currency: 'USD' }]);
      expect(b.workspace_id).toBe(workspaceB);

      const a = (await get(ctx.app, 'me', as(memberOfA))).json<Me>();
      expect(ids(a.workspaces)).toEqual([workspaceA]);
      expect(a.workspace_id).toBe(workspaceA);

      const switched = await ctx.app.inject({
        method: 'GET',
        url: '/api/me',
        headers: { ...bearer(ctx.adminToken), 'x-workspace': String(workspaceB) },
      });
      expect(switched.json<Me>().workspace_id).toBe(workspaceB);
    });
  });

  describe('workspaces', () => {
    it('lists only the ones the user belongs to; root lists every one', async () => {
      const root = (await get(ctx.app, 'workspaces?limit=0', ctx.adminToken)).json<{
        list: { id: number }[];
        total: number;
      }>();
      expect(ids(root.list)).toEqual(expect.arrayContaining([workspaceA, workspaceB]));
      expect(root.total).toBe(root.list.length);

      const b = (await get(ctx.app, 'workspaces?limit=0', as(adminOfB))).json<{
        list: { id: number }[];
        total: number;
      }>();
      expect(ids(b.list)).toEqual([workspaceB]);
      expect(b.total).toBe(1);

      const a = (await get(ctx.app, 'workspaces', as(memberOfA))).json<{ list: { id: number }[]; total: number }>();
      expect(ids(a.list)).toEqual([workspaceA]);
      expect(a.total).toBe(1);
    });

    it("another workspace is not found: B's administrator cannot read, update or rotate A", async () => {
      const before = (await get(ctx.app, `workspaces/${workspaceA}`, ctx.adminToken)).json<{
        name: string;
        postback_key: string;
      }>();
      expectError(await get(ctx.app, `workspaces/${workspaceA}`, as(adminOfB)), 404);
      expectError(await put(ctx.app, `workspaces/${workspaceA}`, { name: 'Taken over' }, as(adminOfB)), 404);
      expectError(await post(ctx.app, `workspaces/${workspaceA}/postback-key`, {}, { token: as(adminOfB) }), 404);
      const after = (await get(ctx.app, `workspaces/${workspaceA}`, ctx.adminToken)).json<{
        name: string;
        postback_key: string;
      }>();
      expect(after).toEqual(before);
    });

    it('a member with the permission updates their own; root updates any', async () => {
      const own = await put(ctx.app, `workspaces/${workspaceB}`, { name: 'Client B' }, as(adminOfB));
      expect(own.statusCode, own.body).toBe(200);
      const rotated = await post(ctx.app, `workspaces/${workspaceB}/postback-key`, {}, { token: as(adminOfB) });
      expect(rotated.statusCode, rotated.body).toBe(200);
      // Belonging is not enough: updating needs the permission too.
      expectError(await put(ctx.app, `workspaces/${workspaceA}`, { name: 'Default' }, as(memberOfA)), 403);
      expectError(await post(ctx.app, `workspaces/${workspaceA}/postback-key`, {}, { token: as(memberOfA) }), 403);
      const byRoot = await put(ctx.app, `workspaces/${workspaceB}`, { name: 'Client B' }, ctx.adminToken);
      expect(byRoot.statusCode, byRoot.body).toBe(200);
    });

    it('whoever creates a workspace becomes its member and can reach it', async () => {
      const created = await post(ctx.app, 'workspaces', { name: 'Client C' }, { token: as(adminOfB) });
      expect(created.statusCode, created.body).toBe(201);
      const workspaceC = created.json<{ id: number }>().id;
      const me = (await get(ctx.app, 'me', as(adminOfB))).json<Me>();
      expect(ids(me.workspaces)).toEqual([workspaceB, workspaceC]);
      expect((await get(ctx.app, `workspaces/${workspaceC}`, as(adminOfB))).statusCode).toBe(200);
      // Still invisible to a member of A only.
      expectError(await get(ctx.app, `workspaces/${workspaceC}`, as(memberOfA)), 404);
      // Root did not become a member, yet reaches it.
      const root = (await get(ctx.app, `users/${rootId}`, ctx.adminToken)).json<UserRecord>();
      expect(root.workspaces).toEqual([workspaceA]);
      expect((await get(ctx.app, `workspaces/${workspaceC}`, ctx.adminToken)).statusCode).toBe(200);
    });
  });

  describe('users', () => {
    it("B's administrator lists only B's users; root lists the acting workspace's", async () => {
      const b = (await get(ctx.app, 'users?limit=0', as(adminOfB))).json<{ list: UserRecord[]; total: number }>();
      expect(ids(b.list)).toContain(adminOfB.id);
      expect(ids(b.list)).not.toContain(memberOfA.id);
      expect(ids(b.list)).not.toContain(rootId);
      expect(b.total).toBe(b.list.length);
      for (const user of b.list) expect(user.workspaces).toContain(workspaceB);

      const root = (await get(ctx.app, 'users?limit=0', ctx.adminToken)).json<{ list: UserRecord[] }>();
      expect(ids(root.list)).toEqual(expect.arrayContaining([rootId, memberOfA.id]));
      expect(ids(root.list)).not.toContain(adminOfB.id);
      const rootInB = await ctx.app.inject({
        method: 'GET',
        url: '/api/users?limit=0',
        headers: { ...bearer(ctx.adminToken), 'x-workspace': String(workspaceB) },
      });
      expect(ids(rootInB.json<{ list: UserRecord[] }>().list)).toContain(adminOfB.id);
      expect(ids(rootInB.json<{ list: UserRecord[] }>().list)).not.toContain(memberOfA.id);
    });

    it("B's administrator cannot read or update A's member", async () => {
      expectError(await get(ctx.app, `users/${memberOfA.id}`, as(adminOfB)), 404);
      expectError(
        await put(ctx.app, `users/${memberOfA.id}`, { name: 'Taken', email: memberOfA.email }, as(adminOfB)),
        404,
      );
      const stored = (await get(ctx.app, `users/${memberOfA.id}`, ctx.adminToken)).json<{ name: string }>();
      expect(stored.name).toBe('Member of A');
      // Root reads any user, whatever the workspace it acts in.
      expect((await get(ctx.app, `users/${adminOfB.id}`, ctx.adminToken)).statusCode).toBe(200);
    });

    it("B's administrator cannot grant A; a user created without workspaces joins B", async () => {
      const before = (await get(ctx.app, 'users?limit=0&status=all', ctx.adminToken)).json<{ total: number }>().total;
      const refused = await post(
        ctx.app,
        'users',
        { name: 'Into A', email: uniqueEmail('into-a'), password: STRONG_PASSWORD, workspaces: [workspaceA] },
        { token: as(adminOfB) },
      );
      expect(expectError(refused, 400).errors).toEqual({ workspaces: [VALIDATION_MESSAGES.unknownWorkspace] });
      expect((await get(ctx.app, 'users?limit=0&status=all', ctx.adminToken)).json<{ total: number }>().total).toBe(
        before,
      );

      const email = uniqueEmail('into-b');
      const created = await post(
        ctx.app,
        'users',
        { name: 'Into B', email, password: STRONG_PASSWORD },
        { token: as(adminOfB) },
      );
      expect(created.statusCode, created.body).toBe(201);
      const user = created.json<UserRecord>();
      expect(user.workspaces).toEqual([workspaceB]);
      expect(ids((await get(ctx.app, 'users?limit=0', as(adminOfB))).json<{ list: UserRecord[] }>().list)).toContain(
        user.id,
      );
      const login = await post(ctx.app, 'login', { email, password: STRONG_PASSWORD });
      const me = (await get(ctx.app, 'me', login.json<{ token: string }>().token)).json<Me>();
      expect(me.workspace_id).toBe(workspaceB);
    });

    it("an update keeps the memberships beyond the editor's reach, which the editor is not shown", async () => {
      const both = await createUserWithPermissions(ctx.app, ctx.adminToken, [], {
        workspaces: [workspaceA, workspaceB],
      });
      const seen = (await get(ctx.app, `users/${both.id}`, as(adminOfB))).json<UserRecord>();
      expect(seen.workspaces).toEqual([workspaceB]);
      const updated = await put(
        ctx.app,
        `users/${both.id}`,
        { name: 'Both', email: both.email, workspaces: [workspaceB] },
        as(adminOfB),
      );
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json<UserRecord>().workspaces).toEqual([workspaceB]);
      const stored = (await get(ctx.app, `users/${both.id}`, ctx.adminToken)).json<UserRecord>();
      expect(stored.workspaces).toEqual([workspaceA, workspaceB]);
      // An update that names no workspace leaves the memberships alone.
      const unnamed = await put(ctx.app, `users/${both.id}`, { name: 'Both', email: both.email }, ctx.adminToken);
      expect(unnamed.json<UserRecord>().workspaces).toEqual([workspaceA, workspaceB]);
      // Naming A is refused to B's administrator.
      const intoA = await put(
        ctx.app,
        `users/${both.id}`,
        { name: 'Both', email: both.email, workspaces: [workspaceA] },
        as(adminOfB),
      );
      expect(expectError(intoA, 400).errors).toEqual({ workspaces: [VALIDATION_MESSAGES.unknownWorkspace] });
    });

    it('root lists the users of no workspace too, and can place them', async () => {
      // As a self-registered account: no workspace at all.
      const orphan = await createUserWithPermissions(ctx.app, ctx.adminToken, []);
      await ctx.app.store.db.deleteFrom('user_workspaces').where('user_id', '=', orphan.id).execute();
      const root = (await get(ctx.app, 'users?limit=0', ctx.adminToken)).json<{ list: UserRecord[] }>();
      expect(ids(root.list)).toContain(orphan.id);
      expectError(await get(ctx.app, `users/${orphan.id}`, as(adminOfB)), 404);
      const placed = await put(
        ctx.app,
        `users/${orphan.id}`,
        { name: 'Placed', email: orphan.email, workspaces: [workspaceB] },
        ctx.adminToken,
      );
      expect(placed.json<UserRecord>().workspaces).toEqual([workspaceB]);
      expect((await get(ctx.app, `users/${orphan.id}`, as(adminOfB))).statusCode).toBe(200);
    });
  });

  describe('invitations', () => {
    async function invite(payload: Record<string, unknown>, token: string) {
      const response = await post(ctx.app, 'invitations', payload, { token });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ invitation: InvitationRecord; delivery: { link?: string } }>();
    }

    async function pending(token: string): Promise<InvitationRecord[]> {
      const response = await get(ctx.app, 'invitations', token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ list: InvitationRecord[] }>().list;
    }

    it("are listed per workspace: B's administrator sees and revokes only B's", async () => {
      const toA = await invite({ email: uniqueEmail('to-a') }, ctx.adminToken);
      expect(toA.invitation.workspaces).toEqual([workspaceA]);
      const toB = await invite({ email: uniqueEmail('to-b') }, as(adminOfB));
      expect(toB.invitation.workspaces).toEqual([workspaceB]);

      const seenByB = ids(await pending(as(adminOfB)));
      expect(seenByB).toContain(toB.invitation.id);
      expect(seenByB).not.toContain(toA.invitation.id);
      const seenByRoot = ids(await pending(ctx.adminToken));
      expect(seenByRoot).toContain(toA.invitation.id);
      expect(seenByRoot).not.toContain(toB.invitation.id);

      expectError(await post(ctx.app, `invitations/${toA.invitation.id}/revoke`, {}, { token: as(adminOfB) }), 404);
      expectError(await post(ctx.app, `invitations/${toA.invitation.id}/resend`, {}, { token: as(adminOfB) }), 404);
      expect(ids(await pending(ctx.adminToken))).toContain(toA.invitation.id);

      const revoked = await post(ctx.app, `invitations/${toB.invitation.id}/revoke`, {}, { token: as(adminOfB) });
      expect(revoked.json<InvitationRecord>().status).toBe('revoked');
      // Root reaches B's through the header.
      const other = await invite({ email: uniqueEmail('to-b-again') }, as(adminOfB));
      const byRoot = await ctx.app.inject({
        method: 'POST',
        url: `/api/invitations/${other.invitation.id}/revoke`,
        headers: { ...bearer(ctx.adminToken), 'x-workspace': String(workspaceB) },
      });
      expect(byRoot.statusCode, byRoot.body).toBe(200);
    });

    it("B's administrator cannot invite into A; the invitee of B joins B", async () => {
      const refused = await post(
        ctx.app,
        'invitations',
        { email: uniqueEmail('into-a'), workspaces: [workspaceA] },
        { token: as(adminOfB) },
      );
      expect(expectError(refused, 400).errors).toEqual({ workspaces: [VALIDATION_MESSAGES.unknownWorkspace] });

      const email = uniqueEmail('joins-b');
      const result = await invite({ email, name: 'Joins B' }, as(adminOfB));
      const token = result.delivery.link?.split('/').pop() ?? '';
      const accepted = await post(ctx.app, 'accept-invite', { token, name: 'Joins B', password: STRONG_PASSWORD });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const me = (await get(ctx.app, 'me', accepted.json<{ token: string }>().token)).json<Me>();
      expect(ids(me.workspaces)).toEqual([workspaceB]);
    });

    it("a new invitation to the same email replaces only the inviter's own", async () => {
      const email = uniqueEmail('both');
      const toA = await invite({ email }, ctx.adminToken);
      const toB = await invite({ email }, as(adminOfB));
      expect(ids(await pending(ctx.adminToken))).toContain(toA.invitation.id);
      const again = await invite({ email }, as(adminOfB));
      const seenByB = ids(await pending(as(adminOfB)));
      expect(seenByB).toContain(again.invitation.id);
      expect(seenByB).not.toContain(toB.invitation.id);
      expect(ids(await pending(ctx.adminToken))).toContain(toA.invitation.id);
    });
  });
});
