import { can, getResource, type ListResponse, type Workspace } from '@switchyard/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { resourceKeys } from '../api/queryKeys';
import { useCurrentUser } from './auth/useCurrentUser';

const workspaces = getResource('workspaces');
const affiliateNetworks = getResource('affiliate-networks');

/** A network as its list answers it: the keyed address its postbacks go to. */
interface NetworkAddress {
  workspace_id: number | null;
  postback_url?: string | null;
}

const NETWORK_QUERY = { limit: 1 };

function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The keyed postback URL (`https://host/{key}/postback`, no query) of the signed-in user's first
 * workspace, the one new records belong to, before any network carries it: built from that
 * workspace's key when the user may read workspaces, else taken from a saved network of it. The host is
 * the one the server puts in networks' URLs (SWITCHYARD_PUBLIC_URL) when a network shows it, else this
 * dashboard's. Null when neither can be read: the URL is then on each affiliate network once saved.
 */
export function usePostbackBaseUrl({ enabled = true }: { enabled?: boolean } = {}): {
  url: string | null;
  isPending: boolean;
} {
  const user = useCurrentUser();
  const workspaceId = user?.workspaces?.[0]?.id;
  const readsWorkspace = enabled && workspaceId !== undefined && can(user, 'general', 'workspace', 'get');
  const readsNetworks = enabled && can(user, 'general', 'affiliate-network', 'get');
  const workspace = useQuery({
    queryKey: resourceKeys.record(workspaces, workspaceId),
    queryFn: ({ signal }) => api<Workspace>(`workspaces/${workspaceId}`, { signal }),
    enabled: readsWorkspace,
    retry: false,
  });
  const networks = useQuery({
    queryKey: resourceKeys.list(affiliateNetworks, NETWORK_QUERY),
    queryFn: ({ signal }) => api<ListResponse<NetworkAddress>>('affiliate-networks', { query: NETWORK_QUERY, signal }),
    enabled: readsNetworks,
    retry: false,
  });

  const network = networks.data?.list.find((record) => record.postback_url);
  const origin = originOf(network?.postback_url) ?? window.location.origin;
  const key = workspace.data?.postback_key;
  let url: string | null = null;
  if (key) url = `${origin}/${key}/postback`;
  else if (network?.postback_url && (network.workspace_id === null || network.workspace_id === workspaceId)) {
    url = network.postback_url;
  }
  const isPending = (readsWorkspace && workspace.isPending) || (readsNetworks && networks.isPending);
  return { url, isPending };
}
