import { createBrowserRouter } from 'react-router';
import { appRoutes, SCREENS_ROUTE_ID } from './routes';

/**
 * The app's router. The resources' screens join it on the first navigation (React Router calls
 * patchRoutesOnNavigation for any path only a catch-all matches): their registry, with every resource's
 * schemas and the regions' data, stays out of the login page's download.
 */
export function createAppRouter() {
  let screens: Promise<void> | undefined;
  return createBrowserRouter(appRoutes(), {
    patchRoutesOnNavigation({ patch }) {
      screens ??= import('./resourceRoutes').then(
        ({ resourceRoutes }) => patch(SCREENS_ROUTE_ID, resourceRoutes()),
        (error: unknown) => {
          // A failed download is tried again on the next navigation.
          screens = undefined;
          throw error;
        },
      );
      return screens;
    },
  });
}
