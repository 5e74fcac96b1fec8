import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { SimulationAnswer } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { routingReasonText } from '../../../components/simulation/routingReason';
import { GroupStatus } from '../../../components/simulation/Verdict';
import { ConditionTrace } from './ConditionTrace';

const key = (name: string) => `resources:simulator.${name}`;

function percent(chance: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(chance);
}

function VisitorRead({ context }: { context: SimulationAnswer['context'] }) {
  const { t } = useTranslation();
  const asn = context.asn === null ? null : `AS${context.asn}${context.isp ? ` ${context.isp}` : ''}`;
  const rows: [string, string | null][] = [
    ['country', context.country],
    ['region', context.region],
    ['city', context.city],
    ['asn', asn],
    ['device', context.device],
    ['platform', context.platform],
    ['browser', context.browser],
    ['language', context.language],
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} mb="sm">
        {t(key('visitorRead'))}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {rows.map(([name, value]) => (
          <div key={name}>
            <Text size="xs" c="dimmed">
              {t(key(`context.${name}`))}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <bdi dir="ltr">{value ?? '—'}</bdi>
            </Text>
          </div>
        ))}
      </SimpleGrid>
      <Text size="sm" mt="sm">
        {context.isBot
          ? t(key('bot'), {
              // The reports' words for the reason; an unknown one shows as the server named it.
              reason: context.botReason
                ? t(`reports:botReasons.${context.botReason}`, { defaultValue: context.botReason })
                : '—',
            })
          : t(key('human'))}
      </Text>
    </Paper>
  );
}

function Decision({ answer }: { answer: SimulationAnswer }) {
  const { t, i18n } = useTranslation();
  const chanceOf = (list: { external_id?: string; id?: string; chance: number }[], id: string | undefined) => {
    const found = list.find((entry) => (entry.external_id ?? entry.id) === id);
    return found ? ` (${percent(found.chance, i18n.language)})` : '';
  };
  const path = answer.probabilities.paths.find((entry) => entry.id === answer.path?.id);
  const rows: [string, string][] = [
    ['pathGroup', answer.path_group?.name ?? '—'],
    ['path', answer.path ? `${answer.path.name}${chanceOf(answer.probabilities.paths, answer.path.id)}` : '—'],
    [
      'lander',
      answer.lander ? `${answer.lander.name}${chanceOf(path?.landers ?? [], answer.lander.external_id)}` : '—',
    ],
    [
      'offer',
      answer.offer ? `${answer.offer.name}${chanceOf(answer.probabilities.offers, answer.offer.external_id)}` : '—',
    ],
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} mb="sm">
        {t(key('decision'))}
      </Title>
      <Text size="sm" mb="sm">
        {routingReasonText(t, answer.reason)}
      </Text>
      {answer.backup_chain
        .filter((offer) => !offer.country_allowed)
        .map((offer) => (
          <Text size="sm" mb="xs" key={`country:${offer.external_id}`}>
            {t(key('countryNotAllowed'), { name: offer.name })}
          </Text>
        ))}
      <Table withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([name, value]) => (
            <Table.Tr key={name}>
              <Table.Th w="30%">{t(key(name))}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {/* A name and its chance stay one phrase inside Arabic text. */}
                <bdi>{value}</bdi>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {answer.probabilities.offers.length > 1 && (
        <Text size="sm" mt="xs">
          {t(key('offerChances'))}{' '}
          {answer.probabilities.offers
            .map((offer) => `${offer.name} ${percent(offer.chance, i18n.language)}`)
            .join(' · ')}
        </Text>
      )}
      {answer.url && (
        <Stack gap={4} mt="sm">
          <Text size="xs" c="dimmed">
            {t(key('url'))}
            {answer.redirect_mode && (
              <>
                {' · '}
                {t('delivery:fields.sentBy')}{' '}
                <Badge
                  component="span"
                  size="sm"
                  variant="light"
                  title={t(`delivery:modes.${answer.redirect_mode}.help`)}
                >
                  {t(`delivery:modes.${answer.redirect_mode}.label`)}
                </Badge>
              </>
            )}
          </Text>
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <Code block dir="ltr" style={{ flex: 1, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {answer.url}
            </Code>
            <CopyButton value={answer.url}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {t(copied ? key('copied') : key('copy'))}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      )}
      {answer.caps.length > 0 && (
        <Stack gap={2} mt="sm">
          <Text size="xs" c="dimmed">
            {t(key('caps'))}
          </Text>
          {answer.caps.map((cap) => (
            <Text size="sm" key={`${cap.kind}:${cap.id}`}>
              {t(key('capRemaining'), { name: cap.name, remaining: cap.remaining, limit: cap.limit })}
            </Text>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** The answer of a simulation, in the order routing read it: the visitor, each group, the decision. */
export function SimulationResult({ answer }: { answer: SimulationAnswer }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <VisitorRead context={answer.context} />
      <Title order={3}>{t(key('groups'))}</Title>
      {answer.groups.length === 0 && <Alert variant="light">{t(key('noGroups'))}</Alert>}
      {answer.groups.map((group) => {
        const routes = answer.path_group?.id === group.id;
        return (
          <Paper
            key={group.id}
            withBorder
            p="md"
            radius="md"
            aria-label={group.name}
            role="region"
            bg={routes ? 'var(--mantine-color-teal-light)' : undefined}
            style={routes ? { borderColor: 'var(--mantine-color-teal-filled)' } : undefined}
          >
            <Group justify="space-between" mb="xs" wrap="wrap">
              <Text fw={600}>{group.name}</Text>
              <Group gap="xs">
                {routes && (
                  <Badge color="teal" variant="filled">
                    {t(key('chosen'))}
                  </Badge>
                )}
                <GroupStatus group={group} />
              </Group>
            </Group>
            <ConditionTrace trace={group.condition_trace} />
          </Paper>
        );
      })}
      <Decision answer={answer} />
    </Stack>
  );
}
