import type { Action, ResourceDefinition } from '@switchyard/domain';
import { useCan } from '../../shared/auth/useCan';

/** Whether the signed-in user may do `action` on the resource (§6); unauthorized controls are hidden. */
export function useResourceCan(definition: ResourceDefinition, action: Action): boolean {
  return useCan(definition.permission.section, definition.permission.resource, action);
}
