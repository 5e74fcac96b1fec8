import { Outlet, ScrollRestoration } from 'react-router';
import { RouteProgressBar } from '../layout/RouteProgressBar';

export function RootRoute() {
  return (
    <>
      <RouteProgressBar />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
