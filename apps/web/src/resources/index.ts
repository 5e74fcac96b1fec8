import type { ResourceName } from '@switchyard/domain';
import type { ComponentType } from 'react';

/** A screen module loaded on demand (react-router's `lazy`). */
export type LazyScreen = () => Promise<{ Component: ComponentType }>;

export interface ResourceScreens {
  list: LazyScreen;
  create: LazyScreen;
  edit: LazyScreen;
}

/**
 * The screens of each resource. The router makes `<route>`, `<route>/create` and `<route>/edit/:id` from
 * these and the resource registry of packages/domain; a resource appears here once its screens exist.
 */
export const RESOURCE_SCREENS: Partial<Record<ResourceName, ResourceScreens>> = {
  users: {
    list: () => import('./users/UserListScreen').then((m) => ({ Component: m.UserListScreen })),
    create: () => import('./users/UserCreateScreen').then((m) => ({ Component: m.UserCreateScreen })),
    edit: () => import('./users/UserEditScreen').then((m) => ({ Component: m.UserEditScreen })),
  },
  workspaces: {
    list: () => import('./workspaces/WorkspaceListScreen').then((m) => ({ Component: m.WorkspaceListScreen })),
    create: () => import('./workspaces/WorkspaceCreateScreen').then((m) => ({ Component: m.WorkspaceCreateScreen })),
    edit: () => import('./workspaces/WorkspaceEditScreen').then((m) => ({ Component: m.WorkspaceEditScreen })),
  },
};
