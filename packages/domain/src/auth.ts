import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';

/** `POST /api/login` body (§7.1). The email is not format-checked: a bad one simply fails to log in. */
export const ZLoginForm = z.object({
  email: z
    .string({ error: M.required })
    .trim()
    .toLowerCase()
    .min(1, { error: M.required })
    .max(254, { error: M.tooLong }),
  password: z.string({ error: M.required }).min(1, { error: M.required }).max(200, { error: M.tooLong }),
});
export type TLoginForm = z.infer<typeof ZLoginForm>;
