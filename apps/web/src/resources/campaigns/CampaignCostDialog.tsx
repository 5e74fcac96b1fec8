import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  COST_FILTER_KEYS,
  type CostFilterKey,
  type CostImportResponse,
  fieldErrors,
  ZCostUpdate,
} from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client';
import { useTimezoneOptions } from '../../api/useTimezoneOptions';
import { useServerMessage } from '../../components/feedback/useServerMessage';
import { DayInput } from '../../components/form/DayInput';
import { errorText } from '../../shared/errors/errorText';

const key = (name: string) => `resources:campaignCosts.${name}`;

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * "Update cost": sets a tracker campaign's cost over a range of days — or of one parameter
 * value — to an amount, spread over its clicks; a second tab imports `date,campaign,var_name,var_value,amount`
 * lines. Both call the same server code.
 */
export function CampaignCostButton({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)}>
        {t(key('open'))}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t(key('title'))} size="lg">
        <Tabs defaultValue="range">
          <Tabs.List>
            <Tabs.Tab value="range">{t(key('rangeTab'))}</Tabs.Tab>
            <Tabs.Tab value="import">{t(key('importTab'))}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="range" pt="md">
            <CostRangeForm campaignId={campaignId} />
          </Tabs.Panel>
          <Tabs.Panel value="import" pt="md">
            <CostImportForm campaignId={campaignId} />
          </Tabs.Panel>
        </Tabs>
      </Modal>
    </>
  );
}

function CostRangeForm({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const queryClient = useQueryClient();
  const timezones = useTimezoneOptions();
  const [start, setStart] = useState(today);
  const [end, setEnd] = useState(today);
  const [timezone, setTimezone] = useState('UTC');
  const [amount, setAmount] = useState<string | number>('');
  const [varName, setVarName] = useState<string | null>(null);
  const [varValue, setVarValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [updated, setUpdated] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);

  const zoneOptions = useMemo(() => {
    const zones = timezones.map((option) => ({ value: String(option.value), label: option.label }));
    return zones.some((zone) => zone.value === timezone) ? zones : [{ value: timezone, label: timezone }, ...zones];
  }, [timezones, timezone]);

  async function submit() {
    setFailure(null);
    setUpdated(null);
    const body = {
      start,
      end,
      timezone,
      amount: amount === '' ? undefined : Number(amount),
      filter: varName ? { [varName]: varValue } : {},
    };
    const parsed = ZCostUpdate.safeParse(body);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error.issues);
      setErrors(Object.fromEntries(Object.entries(found).map(([field, messages]) => [field, messages[0] ?? ''])));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await api<{ clicks: number }>(`tracker/campaigns/${encodeURIComponent(campaignId)}/costs`, {
        method: 'POST',
        body,
      });
      setUpdated(answer.clicks);
      await queryClient.invalidateQueries({ queryKey: ['reports'] });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors()).length > 0) {
        setErrors(error.fieldErrors());
      } else {
        setFailure(errorText(t, error));
      }
    } finally {
      setSaving(false);
    }
  }

  const errorOf = (field: string) => {
    const message = errors[field] ?? Object.entries(errors).find(([name]) => name.startsWith(`${field}.`))?.[1];
    return message ? serverMessage(message) : undefined;
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t(key('hint'))}
      </Text>
      <Group grow align="flex-start">
        <DayInput label={t(key('start'))} value={start} onChange={setStart} error={errorOf('start')} />
        <DayInput label={t(key('end'))} value={end} min={start} onChange={setEnd} error={errorOf('end')} />
      </Group>
      <Select
        label={t(key('timezone'))}
        data={zoneOptions}
        value={timezone}
        onChange={(value) => value && setTimezone(value)}
        searchable
        allowDeselect={false}
        error={errorOf('timezone')}
      />
      <NumberInput
        label={t(key('amount'))}
        value={amount}
        onChange={setAmount}
        min={0}
        decimalScale={6}
        error={errorOf('amount')}
      />
      <Group grow align="flex-start">
        <Select
          label={t(key('varName'))}
          placeholder={t(key('wholeCampaign'))}
          data={COST_FILTER_KEYS.map((name: CostFilterKey) => ({ value: name, label: name }))}
          value={varName}
          onChange={setVarName}
          clearable
          error={errorOf('filter')}
        />
        <TextInput
          label={t(key('varValue'))}
          value={varValue}
          onChange={(event) => setVarValue(event.currentTarget.value)}
          disabled={!varName}
        />
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {updated !== null && (
        <Alert color="green" role="status">
          {t(key('updated'), { n: updated })}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={submit} loading={saving}>
          {t(key('submit'))}
        </Button>
      </Group>
    </Stack>
  );
}

/** The import of cost lines; its example line names this campaign, as a line for it would. */
function CostImportForm({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation();
  const serverMessage = useServerMessage();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CostImportResponse | null>(null);
  const [sending, setSending] = useState(false);

  async function submit() {
    setError(null);
    setResult(null);
    setSending(true);
    try {
      setResult(await api<CostImportResponse>('tracker/campaigns/costs/import', { method: 'POST', body: { text } }));
      await queryClient.invalidateQueries({ queryKey: ['reports'] });
    } catch (failure) {
      const onField = failure instanceof ApiError ? failure.fieldErrors().text : undefined;
      setError(onField ? serverMessage(onField) : errorText(t, failure));
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack gap="sm">
      <Textarea
        label={t(key('csv'))}
        description={t(key('csvHint'))}
        placeholder={`${today()},${campaignId},var1,zone-7,12.50`}
        rows={6}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        error={error}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <Group justify="flex-end">
        <Button onClick={submit} loading={sending} disabled={text.trim() === ''}>
          {t(key('import'))}
        </Button>
      </Group>
      {result && (
        <>
          <Alert color={result.refused > 0 ? 'yellow' : 'green'} role="status">
            {t(key('imported'), { updated: result.updated, refused: result.refused })}
          </Alert>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t(key('line'))}</Table.Th>
                <Table.Th>{t(key('clicks'))}</Table.Th>
                <Table.Th>{t(key('result'))}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.lines.map((line) => (
                <Table.Tr key={line.line}>
                  <Table.Td>{line.line}</Table.Td>
                  <Table.Td>{line.clicks}</Table.Td>
                  <Table.Td>
                    {line.status === 200 ? t(key('lineOk')) : serverMessage(line.message ?? String(line.status))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
