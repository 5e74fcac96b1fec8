// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import { Alert, Anchor, Breadcrumbs, Loader, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { parseEventParams } from '../../reports/eventParams';
import { SimulationResult } from '../../resources/campaigns/simulator/SimulationResult';
import { amountFormat } from '../../shared/reporting/amounts';
import { useWorkspaceCurrency } from '../../shared/workspace/useWorkspaceCurrency';
import { EventConversions } from './EventConversions';
import { ReplayVerdict } from './ReplayVerdict';
import { StoredContext } from './StoredContext';
import { type InspectedKind, isInspectedKind, useEventReplay } from './useEventReplay';

/**
 * /tracker/reports/events/:kind/:eventId (the click inspector): one click or API lead opened
 * from the event log — its stored context, its conversions, and its replay against today's routing
 * ("would go to X today"), explained by the simulator's own result. A link that can be shared; the
 * event log's filters ride along in the query, for the way back.
 */
export function EventInspectorScreen() {
  const { kind, eventId } = useParams();
  if (!isInspectedKind(kind) || !eventId) return <Navigate to="/tracker/reports/events/clicks" replace />;
  return <EventInspector key={`${kind}/${eventId}`} kind={kind} eventId={eventId} />;
}

function EventInspector({ kind, eventId }: { kind: InspectedKind; eventId: string }) {
  const { t, i18n } = useTranslation('events');
  const { search } = useLocation();
  const [searchParams] = useSearchParams();
  const timezone = useMemo(() => parseEventParams(searchParams).timezone, [searchParams]);
  const query = useEventReplay(kind, eventId);
  const currency = useWorkspaceCurrency();
  const format = useMemo(() => {
    const time = new Intl.DateTimeFormat(i18n.language, {
      dateStyle: 'short',
      timeStyle: 'medium',
      timeZone: timezone,
    });
    const amount = amountFormat(i18n.language, currency, 2);
    return { time: (iso: string) => time.format(new Date(iso)), money: (value: number) => amount.format(value) };
  }, [i18n.language, timezone, currency]);
  const title = t(kind === 'clicks' ? 'inspector.clickTitle' : 'inspector.leadTitle', { id: eventId });
  const notFound = query.error instanceof ApiError && query.error.status === 404;

  return (
    <Stack gap="md" maw={1100}>
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor component={Link} to="/tracker/reports">
          {t('breadcrumbs.reports')}
        </Anchor>
        <Anchor component={Link} to={`/tracker/reports/events/${kind}${search}`}>
          {t('title')}
        </Anchor>
        <Text size="sm">{t(`kinds.${kind}`)}</Text>
      </Breadcrumbs>
      <div>
        {/* An id is long and unbroken: the size of a section's title, wrapped anywhere on a phone. */}
        <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {t('inspector.intro')}
        </Text>
      </div>
      {query.isPending && <Loader aria-label={t('inspector.loading')} />}
      {query.error && (
        <Alert color={notFound ? 'gray' : 'red'} role="alert">
          {t(notFound ? 'inspector.notFound' : 'inspector.loadFailed')}
        </Alert>
      )}
      {query.data && (
        <>
          <section aria-label={t('inspector.replay')}>
            <ReplayVerdict event={query.data.event} replay={query.data.replay} />
          </section>
          <StoredContext event={query.data.event} replay={query.data.replay} time={format.time} />
          <EventConversions conversions={query.data.event.conversions} time={format.time} money={format.money} />
          {query.data.replay && (
            <Stack gap="sm" component="section" aria-labelledby="event-replay">
              <Title order={2} size="h4" id="event-replay">
                {t('inspector.simulation')}
              </Title>
              <SimulationResult answer={query.data.replay} />
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
