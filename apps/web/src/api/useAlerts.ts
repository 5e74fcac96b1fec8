import type { Channel, ChannelTestAnswer, Delivery, NotificationList, TChannelForm } from '@switchyard/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

const notificationKeys = { all: ['notifications'] as const };
const channelKeys = { all: ['notification-channels'] as const };

/** How often the bell asks for new notifications. */
const BELL_REFRESH_MS = 30_000;

/** `GET /api/notifications`: the acting user's newest notifications and the unread count. */
export function useNotifications() {
  return useQuery({
    queryKey: notificationKeys.all,
    queryFn: ({ signal }) => api<NotificationList>('notifications', { signal }),
    refetchInterval: BELL_REFRESH_MS,
    retry: false,
  });
}

export function useNotificationActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: notificationKeys.all });
  return {
    read: useMutation({
      mutationFn: (id: number) => api<null>(`notifications/${id}/read`, { method: 'POST' }),
      onSuccess: refresh,
    }),
    readAll: useMutation({
      mutationFn: () => api<null>('notifications/read-all', { method: 'POST' }),
      onSuccess: refresh,
    }),
  };
}

export function useChannels() {
  return useQuery({
    queryKey: channelKeys.all,
    queryFn: ({ signal }) => api<{ list: Channel[]; total: number }>('notification-channels', { signal }),
  });
}

export function useChannelActions() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: channelKeys.all });
  return {
    save: useMutation({
      mutationFn: ({ id, form }: { id: number | null; form: TChannelForm }) =>
        api<Channel>(id === null ? 'notification-channels' : `notification-channels/${id}`, {
          method: id === null ? 'POST' : 'PUT',
          body: form,
        }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api<null>(`notification-channels/${id}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: (id: number) => api<ChannelTestAnswer>(`notification-channels/${id}/test`, { method: 'POST' }),
      onSuccess: (_answer, id) => client.invalidateQueries({ queryKey: [...channelKeys.all, id, 'deliveries'] }),
    }),
  };
}

export function useDeliveries(id: number) {
  return useQuery({
    queryKey: [...channelKeys.all, id, 'deliveries'],
    queryFn: ({ signal }) =>
      api<{ list: Delivery[]; total: number }>(`notification-channels/${id}/deliveries`, { signal }),
  });
}
