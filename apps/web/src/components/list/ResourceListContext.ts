import { createContext, useContext } from 'react';
import type { ResourceListController } from './useResourceListController';

export const ResourceListContext = createContext<ResourceListController | null>(null);

/** The list state for the parts of a list screen (pull, don't push). */
export function useResourceListContext(): ResourceListController {
  const controller = useContext(ResourceListContext);
  if (!controller) throw new Error('useResourceListContext must be used inside <ResourceList>');
  return controller;
}
