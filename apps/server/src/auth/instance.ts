// Who administers the instance itself (its currency rates, bot protection, registration and
// account settings, mail), as opposed to one workspace. The one place that says so: what reads or
// changes instance data asks here. A signed-in user holding `/instance/settings/<action>` (the root
// covers it; the workspace sections do not); an API token acts in its own workspace only, so even a
// token with the root permission is not the instance's administrator.
import { can } from '@switchyard/domain';
import type { Actor } from './actor.js';

export type InstanceAction = 'get' | 'update';

/** Whether the actor may read (`get`) or change (`update`) the instance's settings. */
export function canInstance(actor: Pick<Actor, 'permissions' | 'token'>, action: InstanceAction): boolean {
  return actor.token === undefined && can(actor, 'instance', 'settings', action);
}

/** The instance's administrators: whoever may change its settings. */
export function isInstanceAdmin(actor: Pick<Actor, 'permissions' | 'token'>): boolean {
  return canInstance(actor, 'update');
}
