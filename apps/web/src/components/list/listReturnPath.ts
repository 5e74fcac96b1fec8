import type { ResourceDefinition } from '@switchyard/domain';

// The last URL search of each list screen, so Cancel and the breadcrumb go back to the same page,
// search and filter the operator left (list state lives in the URL).
const lastSearchByRoute = new Map<string, string>();

export function rememberListSearch(route: string, search: string): void {
  lastSearchByRoute.set(route, search);
}

/** The list route of a resource with the search it was left with. */
export function listReturnPath(definition: ResourceDefinition): string {
  const route = definition.route ?? '/admin';
  return `${route}${lastSearchByRoute.get(route) ?? ''}`;
}
