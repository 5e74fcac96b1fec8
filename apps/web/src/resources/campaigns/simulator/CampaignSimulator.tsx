import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { SimulationAnswer } from '@switchyard/domain';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerMessage } from '../../../components/feedback/useServerMessage';
import { SimulationResult } from './SimulationResult';
import { type CampaignKind, useSimulation } from './useSimulation';
import { localDateTime, readParameterLines, SAMPLE_ADDRESSES, USER_AGENT_PRESETS } from './visitorPresets';

const key = (name: string) => `resources:simulator.${name}`;

/**
 * "Where would this visitor go, and why": a visitor (for an API campaign, a lead) described by
 * hand, routed through the campaign as it is live, and the answer explained.
 */
export function CampaignSimulator({
  kind,
  campaignId,
  onAnswer,
  resultActions,
}: {
  kind: CampaignKind;
  campaignId: string;
  /** Each answer as it comes (the flow editor marks its builder with it). */
  onAnswer?: (answer: SimulationAnswer) => void;
  /** Shown above an answer (the flow editor's "Show on the flow"). */
  resultActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const simulation = useSimulation(kind, campaignId, onAnswer);
  const [ip, setIp] = useState('');
  const [userAgent, setUserAgent] = useState('');
  const [language, setLanguage] = useState('');
  const [referrer, setReferrer] = useState('');
  const [parameters, setParameters] = useState('');
  const [time, setTime] = useState(() => localDateTime(new Date()));
  const [email, setEmail] = useState('visitor@example.com');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const visitor: Record<string, unknown> = {};
    if (ip.trim()) visitor.ip = ip.trim();
    if (userAgent.trim()) visitor.user_agent = userAgent.trim();
    if (language.trim()) visitor.language = language.trim();
    if (referrer.trim()) visitor.referrer = referrer.trim();
    if (time) visitor.time = new Date(time).toISOString();
    // A lead carries its parameters as vars, a click as the URL's query.
    if (kind === 'api') simulation.mutate({ ...visitor, email: email.trim(), vars: readParameterLines(parameters) });
    else simulation.mutate({ ...visitor, params: readParameterLines(parameters) });
  };

  return (
    <Stack gap="md" maw={960}>
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="form" onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t(key('intro'))}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t(key('ip'))}
              description={t(key('ipHint'))}
              value={ip}
              onChange={(event) => setIp(event.currentTarget.value)}
              dir="ltr"
            />
            <Select
              label={t(key('sampleAddress'))}
              placeholder={t(key('sampleAddressPlaceholder'))}
              data={SAMPLE_ADDRESSES.map((sample) => ({ value: sample.ip, label: `${sample.country} — ${sample.ip}` }))}
              value={SAMPLE_ADDRESSES.some((sample) => sample.ip === ip) ? ip : null}
              onChange={(value) => value && setIp(value)}
            />
          </SimpleGrid>
          <Select
            label={t(key('userAgentPreset'))}
            placeholder={t(key('userAgentPresetPlaceholder'))}
            data={USER_AGENT_PRESETS.map((preset) => ({ value: preset.value, label: preset.label }))}
            value={USER_AGENT_PRESETS.some((preset) => preset.value === userAgent) ? userAgent : null}
            onChange={(value) => value && setUserAgent(value)}
          />
          <Textarea
            label={t(key('userAgent'))}
            value={userAgent}
            onChange={(event) => setUserAgent(event.currentTarget.value)}
            rows={3}
            dir="ltr"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t(key('language'))}
              placeholder="fr-CH, fr;q=0.9"
              value={language}
              onChange={(event) => setLanguage(event.currentTarget.value)}
              dir="ltr"
            />
            <TextInput
              label={t(key('referrer'))}
              placeholder="https://example.com/"
              value={referrer}
              onChange={(event) => setReferrer(event.currentTarget.value)}
              dir="ltr"
            />
            {kind === 'api' && (
              <TextInput
                label={t(key('email'))}
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                dir="ltr"
                required
              />
            )}
            <TextInput
              type="datetime-local"
              label={t(key('time'))}
              value={time}
              onChange={(event) => setTime(event.currentTarget.value)}
              dir="ltr"
            />
          </SimpleGrid>
          <Textarea
            label={t(kind === 'api' ? key('vars') : key('params'))}
            description={t(key('paramsHint'))}
            placeholder={'var1=banner-7\nsubid=42'}
            value={parameters}
            onChange={(event) => setParameters(event.currentTarget.value)}
            rows={2}
            dir="ltr"
          />
          <Group>
            <Button type="submit" loading={simulation.isPending}>
              {t(key('run'))}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {simulation.isError && (
        <Alert color="red" variant="light" role="alert">
          {translate(simulation.error.message)}
        </Alert>
      )}
      {simulation.data && resultActions}
      {simulation.data && <SimulationResult answer={simulation.data} />}
    </Stack>
  );
}
