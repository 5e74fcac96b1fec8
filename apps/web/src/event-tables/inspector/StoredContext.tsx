import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { LoggedRecord, SimulationAnswer } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { type InspectedEvent, partName } from './destination';
import { reasonText } from './ReplayVerdict';

interface Entry {
  /** The event tables' column this value is; its label is the column's. */
  column: string;
  value: string | null;
  /** Read left to right in Arabic too: addresses, ids, user agents. */
  ltr?: boolean;
  wide?: boolean;
}

const named = (record: LoggedRecord | null, id: string | null) =>
  record?.name ? record.name : (record?.external_id ?? id);

/**
 * The click inspector: the event as it was stored — when, where it was routed and why, and
 * what was read off the visitor — labelled as the event tables' columns are.
 */
export function StoredContext({
  event,
  replay,
  time,
}: {
  event: InspectedEvent;
  replay: SimulationAnswer | null;
  time: (iso: string) => string;
}) {
  const { t } = useTranslation('events');
  const yesNo = (value: boolean) => t(value ? 'yes' : 'no');
  const click = 'click_id' in event ? event : null;
  const lead = 'lead_id' in event ? event : null;
  const bot = event.is_bot
    ? event.bot_reason
      ? t('botBecause', { reason: t(`reports:botReasons.${event.bot_reason}`, { defaultValue: event.bot_reason }) })
      : t('yes')
    : t('no');
  const entries: Entry[] = [
    { column: 'created_at', value: time(event.created_at) },
    { column: 'campaign', value: named(event.campaign, event.campaign_external_id) },
    { column: 'flow', value: named(event.flow, event.flow_external_id) },
    { column: 'path_group_id', value: partName(event.path_group_id, replay, 'groups') },
    { column: 'path_id', value: partName(event.path_id, replay, 'paths') },
    ...(click ? [{ column: 'lander', value: named(click.lander, click.lander_external_id) }] : []),
    { column: 'offer', value: named(event.offer, event.offer_external_id) },
    ...(lead
      ? [
          { column: 'decision', value: lead.decision },
          { column: 'backup_used', value: yesNo(lead.backup_used) },
        ]
      : []),
    { column: 'reason', value: reasonText(t, event.reason) },
    { column: 'country', value: event.country, ltr: true },
    { column: 'region', value: event.region, ltr: true },
    { column: 'city', value: event.city },
    { column: 'asn', value: event.asn === null ? null : `AS${event.asn}`, ltr: true },
    { column: 'isp', value: event.isp },
    { column: 'device', value: event.device },
    { column: 'platform', value: event.platform },
    { column: 'browser', value: event.browser },
    { column: 'language', value: event.language, ltr: true },
    ...(click ? [{ column: 'referrer', value: click.referrer, ltr: true, wide: true }] : []),
    { column: 'ip', value: event.ip, ltr: true },
    { column: 'is_unique', value: yesNo(event.is_unique) },
    { column: 'is_bot', value: bot },
    ...(click ? [{ column: 'external_click_id', value: click.external_click_id, ltr: true }] : []),
    ...(lead
      ? [
          { column: 'email_domain', value: lead.email_domain, ltr: true },
          { column: 'age', value: lead.age === null ? null : String(lead.age) },
        ]
      : []),
    { column: 'user_agent', value: event.user_agent, ltr: true, wide: true },
  ];
  const vars = Object.entries(event.vars);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="stored-context">
      <Title order={2} size="h4" mb="sm" id="stored-context">
        {t('inspector.stored')}
      </Title>
      <SimpleGrid component="dl" cols={{ base: 2, md: 3 }} spacing="sm" verticalSpacing="xs" m={0}>
        {entries.map((entry) => (
          <div key={entry.column} style={entry.wide ? { gridColumn: '1 / -1' } : undefined}>
            <Text component="dt" size="xs" c="dimmed">
              {t(`columns.${entry.column}`)}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {entry.value === null ? '—' : entry.ltr ? <bdi dir="ltr">{entry.value}</bdi> : <bdi>{entry.value}</bdi>}
            </Text>
          </div>
        ))}
        <div style={{ gridColumn: '1 / -1' }}>
          <Text component="dt" size="xs" c="dimmed">
            {t('inspector.vars')}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {vars.length === 0 ? (
              '—'
            ) : (
              <bdi dir="ltr">{vars.map(([name, value]) => `${name}=${value}`).join(' · ')}</bdi>
            )}
          </Text>
        </div>
      </SimpleGrid>
    </Paper>
  );
}
