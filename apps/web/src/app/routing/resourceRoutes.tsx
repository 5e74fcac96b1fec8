import { RESOURCES } from '@switchyard/domain';
import type { RouteObject } from 'react-router';
import { RESOURCE_SCREENS, type ResourceScreens } from '../../resources';
import { RequirePermission } from './RequirePermission';

/**
 * `<route>`, `<route>/create` and `<route>/edit/:id` of every resource with screens, loaded on demand and
 * guarded by its permission: get for the list and the edit screen, create for the create screen (§6).
 */
export function resourceRoutes(screens: Partial<Record<string, ResourceScreens>> = RESOURCE_SCREENS): RouteObject[] {
  return RESOURCES.flatMap((resource): RouteObject[] => {
    const screen = screens[resource.name];
    if (!resource.route || !screen) return [];
    const { section, resource: key } = resource.permission;
    return [
      {
        element: <RequirePermission section={section} resource={key} action="get" />,
        children: [
          { path: resource.route, lazy: screen.list },
          { path: `${resource.route}/edit/:id`, lazy: screen.edit },
        ],
      },
      {
        element: <RequirePermission section={section} resource={key} action="create" />,
        children: [{ path: `${resource.route}/create`, lazy: screen.create }],
      },
    ];
  });
}
