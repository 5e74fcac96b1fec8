import { type Action, can, type Section } from '@switchyard/domain';
import { useCurrentUser } from './useCurrentUser';

/** §6 for the signed-in user: hide what cannot be used. */
export function useCan(section: Section, resource?: string, action?: Action): boolean {
  return can(useCurrentUser(), section, resource, action);
}
