import type { ResourceName } from '@switchyard/domain';
import { type ComponentType, createContext, useContext } from 'react';

/** The create form alone, for a drawer over another form; `onCreated` gets the saved record. */
export type CreateFormComponent = ComponentType<{ onCreated: (saved: Record<string, unknown>) => void }>;

/** Loads a resource's create form, if it has one. */
export type CreateFormLoader = () => Promise<CreateFormComponent | undefined>;

/**
 * Where "Create one now" finds a resource's create form. The forms live with the resources' screens,
 * above this folder, so the app gives them here; without it, the link opens the create screen instead.
 */
export const CreateFormsContext = createContext<(resource: ResourceName) => CreateFormLoader | undefined>(
  () => undefined,
);

export function useCreateFormLoader(resource: ResourceName): CreateFormLoader | undefined {
  return useContext(CreateFormsContext)(resource);
}
