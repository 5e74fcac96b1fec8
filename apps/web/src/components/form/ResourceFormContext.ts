import { createContext, useContext } from 'react';
import type { ResourceFormController } from './useResourceForm';

export const ResourceFormContext = createContext<ResourceFormController | null>(null);

/** The form state for its fields and buttons (pull, don't push). */
export function useResourceFormContext(): ResourceFormController {
  const form = useContext(ResourceFormContext);
  if (!form) throw new Error('useResourceFormContext must be used inside <ResourceForm>');
  return form;
}
