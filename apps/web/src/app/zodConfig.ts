import { z } from 'zod';

// The dashboard runs under a CSP without 'unsafe-eval' (apps/server/src/http/security-headers.ts). Zod
// probes for eval with `new Function` when an object schema is built, and the browser reports that
// probe as a violation even though Zod catches it; jitless skips the probe. It shares Zod's chunk
// (vite.config.ts), which runs it as Zod loads, before @switchyard/domain builds a schema; it is imported
// by the first screens that build schemas, not by main.tsx, so the login page does not download Zod.
z.config({ jitless: true });
