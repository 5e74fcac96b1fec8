import { Navigate, type RouteObject } from 'react-router';
import { loadScreenTexts } from '../../i18n';
import { ErrorPage } from '../../shared/errors/ErrorPage';
import { RouteErrorBoundary } from '../errors/RouteErrorBoundary';
import { AuthLayout } from '../layout/AuthLayout';
import { LogoutPage } from '../pages/LogoutPage';
import { GuestOnly } from './GuestOnly';
import { RequireAuth } from './RequireAuth';
import { RequirePermission } from './RequirePermission';
import { RootRoute } from './RootRoute';
import { RouteFallback } from './RouteFallback';

/** A page's code and the texts of every namespace it may read (the login page reads only `common`). */
function withTexts<T>(page: Promise<T>): Promise<T> {
  return Promise.all([page, loadScreenTexts()]).then(([module]) => module);
}

/** The route the resources' screens go under (see router.ts): inside the layout, beside the others. */
export const SCREENS_ROUTE_ID = 'screens';

/**
 * The routes of §2.1 that exist so far. The resources' screens (`screenRoutes`) are added on the first
 * navigation by the router (router.ts), so the registry they are built from is not in the first download.
 */
export function appRoutes(screenRoutes: RouteObject[] = []): RouteObject[] {
  return [
    {
      element: <RootRoute />,
      errorElement: <RouteErrorBoundary />,
      hydrateFallbackElement: <RouteFallback />,
      children: [
        { path: '/', element: <Navigate to="/admin" replace /> },
        { path: '/tracker', element: <Navigate to="/admin" replace /> },
        // §2.1: the other reading of the login page.
        { path: '/account/login', element: <Navigate to="/login" replace /> },
        { path: '/logout', element: <LogoutPage /> },
        // §2.1: the template's recovery and registration pages.
        { path: '/auth/recoverpwd', element: <Navigate to="/forgot-password" replace /> },
        { path: '/auth/register-1', element: <Navigate to="/register" replace /> },
        {
          element: <GuestOnly />,
          children: [
            {
              element: <AuthLayout />,
              children: [
                { path: '/login', lazy: () => import('../pages/LoginPage').then((m) => ({ Component: m.LoginPage })) },
                {
                  path: '/register',
                  lazy: () => withTexts(import('../account/RegisterPage')).then((m) => ({ Component: m.RegisterPage })),
                },
                {
                  path: '/forgot-password',
                  lazy: () =>
                    withTexts(import('../account/ForgotPasswordPage')).then((m) => ({
                      Component: m.ForgotPasswordPage,
                    })),
                },
                {
                  path: '/reset-password/:token?',
                  lazy: () =>
                    withTexts(import('../account/ResetPasswordPage')).then((m) => ({ Component: m.ResetPasswordPage })),
                },
              ],
            },
          ],
        },
        {
          // Links from emails work whoever is logged in on this browser.
          element: <AuthLayout />,
          children: [
            {
              path: '/accept-invite/:token?',
              lazy: () =>
                withTexts(import('../account/AcceptInvitePage')).then((m) => ({ Component: m.AcceptInvitePage })),
            },
            {
              path: '/verify-email/:token?',
              lazy: () =>
                withTexts(import('../account/VerifyEmailPage')).then((m) => ({ Component: m.VerifyEmailPage })),
            },
          ],
        },
        {
          element: <RequireAuth />,
          children: [
            {
              // The dashboard's frame is its own download: the login page does not carry it.
              lazy: () =>
                withTexts(import('../layout/DashboardLayout')).then((m) => ({ Component: m.DashboardLayout })),
              children: [
                {
                  // Errors of a screen show inside the layout, with the menu still there.
                  id: SCREENS_ROUTE_ID,
                  errorElement: <RouteErrorBoundary />,
                  children: [
                    {
                      path: '/admin',
                      lazy: () => import('../pages/DashboardPage').then((m) => ({ Component: m.DashboardPage })),
                    },
                    {
                      path: '/profile',
                      lazy: () => import('../account/ProfilePage').then((m) => ({ Component: m.ProfilePage })),
                    },
                    ...screenRoutes,
                    {
                      element: <RequirePermission section="tracker" resource="reports" action="get" />,
                      children: [
                        {
                          path: '/tracker/reports',
                          lazy: () => import('../../reports/ReportsPage').then((m) => ({ Component: m.ReportsPage })),
                        },
                      ],
                    },
                    {
                      element: <RequirePermission section="tracker" resource="reports" action="get" />,
                      children: [
                        {
                          path: '/tracker/reports/postbacks',
                          lazy: () =>
                            import('../../postback-log/PostbackLogScreen').then((m) => ({
                              Component: m.PostbackLogScreen,
                            })),
                        },
                        {
                          // The workspace's events as they happen.
                          path: '/tracker/live',
                          lazy: () => import('../../live/LiveScreen').then((m) => ({ Component: m.LiveScreen })),
                        },
                        {
                          // The single events behind a report row.
                          path: '/tracker/reports/events/:kind',
                          lazy: () =>
                            import('../../event-tables/EventTablesScreen').then((m) => ({
                              Component: m.EventTablesScreen,
                            })),
                        },
                        {
                          // One click or API lead, and where it would go today.
                          path: '/tracker/reports/events/:kind/:eventId',
                          lazy: () =>
                            import('../../event-tables/inspector/EventInspectorScreen').then((m) => ({
                              Component: m.EventInspectorScreen,
                            })),
                        },
                      ],
                    },
                    {
                      // The instance's rates, for whoever may read the instance's settings.
                      element: <RequirePermission section="instance" resource="settings" action="get" />,
                      children: [
                        {
                          path: '/admin/currency-rates',
                          lazy: () =>
                            import('../../currency-rates/CurrencyRatesScreen').then((m) => ({
                              Component: m.CurrencyRatesScreen,
                            })),
                        },
                      ],
                    },
                    {
                      // Server-wide like the registration settings: the instance's.
                      element: <RequirePermission section="instance" resource="settings" action="get" />,
                      children: [
                        {
                          path: '/admin/bot-protection',
                          lazy: () =>
                            import('../../bot-protection/BotProtectionScreen').then((m) => ({
                              Component: m.BotProtectionScreen,
                            })),
                        },
                      ],
                    },
                    {
                      // Backups of the database, for the instance's administrators.
                      element: <RequirePermission section="instance" resource="settings" action="update" />,
                      children: [
                        {
                          path: '/admin/backups',
                          lazy: () =>
                            import('../../backups/BackupsScreen').then((m) => ({ Component: m.BackupsScreen })),
                        },
                      ],
                    },
                    {
                      // Importing another tracker's records; the server checks each kind's rights too.
                      element: <RequirePermission section="tracker" resource="import" action="create" />,
                      children: [
                        {
                          path: '/tracker/imports',
                          lazy: () => import('../../imports/ImportScreen').then((m) => ({ Component: m.ImportScreen })),
                        },
                      ],
                    },
                    {
                      // Rules that watch the reports and act; the server checks each call too.
                      element: <RequirePermission section="tracker" resource="rule" action="get" />,
                      children: [
                        {
                          path: '/tracker/rules',
                          lazy: () => import('../../rules/RulesScreen').then((m) => ({ Component: m.RulesScreen })),
                        },
                        {
                          path: '/tracker/rules/new',
                          lazy: () =>
                            import('../../rules/RuleEditScreen').then((m) => ({ Component: m.RuleEditScreen })),
                        },
                        {
                          path: '/tracker/rules/edit/:id',
                          lazy: () =>
                            import('../../rules/RuleEditScreen').then((m) => ({ Component: m.RuleEditScreen })),
                        },
                      ],
                    },
                    {
                      // Each user's own notifications and channels, in the acting workspace.
                      path: '/notifications',
                      lazy: () =>
                        import('../../alerts/NotificationsScreen').then((m) => ({ Component: m.NotificationsScreen })),
                    },
                    {
                      path: '/notifications/channels',
                      lazy: () => import('../../alerts/ChannelsScreen').then((m) => ({ Component: m.ChannelsScreen })),
                    },
                    {
                      // Every signed-in user sees the kept changes the API lets them read.
                      path: '/admin/history',
                      lazy: () => import('../../history/HistoryScreen').then((m) => ({ Component: m.HistoryScreen })),
                    },
                    { path: '/utility/404', element: <ErrorPage status={404} /> },
                    { path: '*', element: <ErrorPage status={404} /> },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ];
}
