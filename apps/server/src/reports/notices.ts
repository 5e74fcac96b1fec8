// What the reports screen warns of. Clicks that arrive with X-Forwarded-For from a
// proxy that is not trusted all carry the proxy's address: no country, and geo rules never match. While
// such a click was seen in the last day (on this node), the screen names SWITCHYARD_TRUST_PROXY.
import type { ReportNotice } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { authorize } from '../http/guard.js';
import { TRUST_PROXY_SETTING } from '../http/trusted-proxies.js';
import type { TrafficEngine } from '../traffic/engine.js';

const RECENT_MS = 24 * 60 * 60 * 1000;

export function reportNoticeRoutes(app: FastifyInstance, engine: TrafficEngine): void {
  app.get('/reports/notices', async (request) => {
    authorize(request, 'tracker', 'reports', 'get');
    const notices: ReportNotice[] = [];
    const seen = engine.untrustedProxyWithin(RECENT_MS);
    if (seen) {
      notices.push({
        code: 'untrusted_proxy',
        peer: seen.peer,
        last_seen_at: seen.at.toISOString(),
        setting: TRUST_PROXY_SETTING,
      });
    }
    return { notices };
  });
}
