import { z } from 'zod';

// The dashboard runs under a CSP without 'unsafe-eval' (apps/server/src/http/security-headers.ts). Zod
// probes for eval with `new Function` when an object schema is built, and the browser reports that
// probe as a violation even though Zod catches it; jitless skips the probe. Imported first in main.tsx,
// before @switchyard/domain builds its schemas.
z.config({ jitless: true });
