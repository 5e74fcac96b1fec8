// Issue 40: who administers the instance itself (its currency rates, bot protection, registration and
// account settings, mail), as opposed to one workspace. The one place that says so: what reads instance
// data asks here. Today that is the root permission held by a signed-in user; an API token acts in its
// own workspace only, so even a token with the root permission is not the instance's administrator.
import type { Actor } from './actor.js';
import { isRoot } from './workspace.js';

export function isInstanceAdmin(actor: Pick<Actor, 'permissions' | 'token'>): boolean {
  return isRoot(actor) && actor.token === undefined;
}
