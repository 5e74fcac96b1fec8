import { Alert, Code } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Trans } from 'react-i18next';
import { api } from '../api/client';

interface ReportNotice {
  code: 'untrusted_proxy';
  peer: string;
  last_seen_at: string;
  setting: string;
}

/**
 * What the server saw that makes the figures wrong without an error — clicks arriving
 * through a proxy it does not trust (every visitor is the proxy: no country, geo rules never match).
 */
export function ReportNotices() {
  const { data } = useQuery({
    queryKey: ['reports', 'notices'],
    queryFn: ({ signal }) => api<{ notices: ReportNotice[] }>('reports/notices', { signal }),
    staleTime: 60_000,
  });
  const notices = data?.notices ?? [];
  if (notices.length === 0) return null;
  return (
    <>
      {notices.map((notice) => (
        <Alert key={notice.code} color="yellow" role="status" data-testid="report-notice">
          <Trans
            ns="reports"
            i18nKey="notices.untrustedProxy"
            values={{ peer: notice.peer, setting: notice.setting }}
            components={{ code: <Code /> }}
          />
        </Alert>
      ))}
    </>
  );
}
