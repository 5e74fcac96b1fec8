import { notifications } from '@mantine/notifications';
import { type TNotification, type TNotificationInput, ZNotification } from '@switchyard/domain';

/** §3.11 type → Mantine color; `primary` is the theme's brand color. */
export const NOTIFICATION_COLORS: Record<TNotification['type'], string> = {
  danger: 'red',
  success: 'green',
  warning: 'yellow',
  info: 'blue',
  primary: 'brand',
  default: 'gray',
};

type Position = 'top-left' | 'top-center' | 'top-right' | 'bottom-left' | 'bottom-center' | 'bottom-right';

export function notificationPosition(settings: Pick<TNotification, 'verticalAlign' | 'horizontalAlign'>): Position {
  return `${settings.verticalAlign}-${settings.horizontalAlign}`;
}

let sequence = 0;

/**
 * Shows a notice (§3.11, §5.6, §9): validated against the domain schema, 5000 ms at top right unless told
 * otherwise, `timeout: 0` keeps it until clicked, and a click anywhere on it closes it.
 * Returns the notification id. Throws a ZodError for invalid settings (negative timeout, unknown type).
 */
export function notify(input: TNotificationInput): string {
  const notice = ZNotification.parse(input);
  sequence += 1;
  const id = `notice-${sequence}`;
  return notifications.show({
    id,
    title: notice.title,
    message: notice.message,
    color: NOTIFICATION_COLORS[notice.type],
    position: notificationPosition(notice),
    autoClose: notice.timeout === 0 ? false : notice.timeout,
    withCloseButton: true,
    onClick: () => notifications.hide(id),
    style: { cursor: 'pointer' },
    'data-type': notice.type,
  });
}
