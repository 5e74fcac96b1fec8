import type { ResourceName } from '@switchyard/domain';
import type { ComponentType } from 'react';
import type { CreateFormComponent, CreateFormLoader } from '../components/form/createForms';
import type { ResourceScreenComponents } from './screens/resourceScreens';

/** A screen module loaded on demand (react-router's `lazy`). */
export type LazyScreen = () => Promise<{ Component: ComponentType }>;

export interface ResourceScreens {
  list: LazyScreen;
  create: LazyScreen;
  edit: LazyScreen;
  /** The create form alone, opened in a drawer by "Create one now" so the form beside it is kept. */
  createForm?: () => Promise<CreateFormComponent | undefined>;
}

/** The three screens of a module made with `resourceScreens`, loaded when first visited. */
function lazyScreens(load: () => Promise<ResourceScreenComponents>): ResourceScreens {
  return {
    list: () => load().then((screens) => ({ Component: screens.List })),
    create: () => load().then((screens) => ({ Component: screens.Create })),
    edit: () => load().then((screens) => ({ Component: screens.Edit })),
    createForm: () => load().then((screens) => screens.CreateForm),
  };
}

/**
 * The screens of each resource. The router makes `<route>`, `<route>/create` and `<route>/edit/:id` from
 * these and the resource registry of packages/domain; a resource appears here once its screens exist.
 */
export const RESOURCE_SCREENS: Partial<Record<ResourceName, ResourceScreens>> = {
  flows: lazyScreens(() => import('./flows/screens').then((m) => m.flowScreens)),
  segments: lazyScreens(() => import('./segments/screens').then((m) => m.segmentScreens)),
  campaigns: lazyScreens(() => import('./campaigns/screens').then((m) => m.campaignScreens)),
  offers: lazyScreens(() => import('./offers/screens').then((m) => m.offerScreens)),
  'tracker-flows': lazyScreens(() => import('./flows/screens').then((m) => m.trackerFlowScreens)),
  'tracker-segments': lazyScreens(() => import('./segments/screens').then((m) => m.trackerSegmentScreens)),
  'tracker-campaigns': lazyScreens(() => import('./campaigns/screens').then((m) => m.trackerCampaignScreens)),
  'tracker-offers': lazyScreens(() => import('./offers/screens').then((m) => m.trackerOfferScreens)),
  'tracker-landers': lazyScreens(() => import('./tracker-landers/screens').then((m) => m.trackerLanderScreens)),
  'traffic-sources': lazyScreens(() => import('./traffic-sources/screens').then((m) => m.trafficSourceScreens)),
  'affiliate-networks': lazyScreens(() =>
    import('./affiliate-networks/screens').then((m) => m.affiliateNetworkScreens),
  ),
  events: lazyScreens(() => import('./events/screens').then((m) => m.eventScreens)),
  'postback-events': lazyScreens(() => import('./postback-events/screens').then((m) => m.postbackEventScreens)),
  users: {
    list: () => import('./users/UserListScreen').then((m) => ({ Component: m.UserListScreen })),
    create: () => import('./users/UserCreateScreen').then((m) => ({ Component: m.UserCreateScreen })),
    edit: () => import('./users/UserEditScreen').then((m) => ({ Component: m.UserEditScreen })),
  },
  domains: {
    list: () => import('./domains/DomainListScreen').then((m) => ({ Component: m.DomainListScreen })),
    create: () => import('./domains/screens').then((m) => ({ Component: m.DomainCreateScreen })),
    edit: () => import('./domains/screens').then((m) => ({ Component: m.DomainEditScreen })),
  },
  workspaces: {
    list: () => import('./workspaces/WorkspaceListScreen').then((m) => ({ Component: m.WorkspaceListScreen })),
    create: () => import('./workspaces/WorkspaceCreateScreen').then((m) => ({ Component: m.WorkspaceCreateScreen })),
    edit: () => import('./workspaces/WorkspaceEditScreen').then((m) => ({ Component: m.WorkspaceEditScreen })),
  },
};

/** A resource's create form, for "Create one now" (components/form/createForms.ts). */
export function createFormOf(resource: ResourceName): CreateFormLoader | undefined {
  return RESOURCE_SCREENS[resource]?.createForm;
}
