import { z } from 'zod';
import { NOTIFICATION_HORIZONTAL_ALIGN, NOTIFICATION_TIMEOUT_MS, NOTIFICATION_VERTICAL_ALIGN } from './constants.js';

/** §3.11 fields with the settings rules of §5.6 and the defaults of §9. */
export const ZNotification = z.object({
  message: z.string(),
  title: z.string().optional(),
  icon: z.string().optional(),
  type: z.enum(['default', 'info', 'primary', 'danger', 'warning', 'success']).default('default'),
  timeout: z.number().min(0).default(NOTIFICATION_TIMEOUT_MS),
  verticalAlign: z.enum(['top', 'bottom']).default(NOTIFICATION_VERTICAL_ALIGN),
  horizontalAlign: z.enum(['left', 'center', 'right']).default(NOTIFICATION_HORIZONTAL_ALIGN),
});
export type TNotificationInput = z.input<typeof ZNotification>;
export type TNotification = z.output<typeof ZNotification>;
