import { Button, Group, MultiSelect, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import { ALERT_KINDS, CHANNEL_KINDS, type Channel, type ChannelKind, type TChannelForm } from '@switchyard/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useChannelActions } from '../api/useAlerts';
import { translateServerMessage } from '../shared/errors/errorText';

type Values = {
  kind: ChannelKind;
  name: string;
  enabled: boolean;
  events: string[];
  bot_token: string;
  chat_id: string;
  webhook_url: string;
  to: string;
  url: string;
  secret: string;
};

function initial(channel: Channel | null): Values {
  return {
    kind: channel?.kind ?? 'telegram',
    name: channel?.name ?? '',
    enabled: channel?.enabled ?? true,
    events: channel?.events ?? [],
    bot_token: '',
    chat_id: channel?.chat_id ?? '',
    webhook_url: '',
    to: channel?.to ?? '',
    url: channel?.url ?? '',
    secret: '',
  };
}

/** The fields of the chosen kind only: what the server's form for that kind takes. */
function formOf(values: Values): TChannelForm {
  const common = { name: values.name, enabled: values.enabled, events: values.events as TChannelForm['events'] };
  switch (values.kind) {
    case 'telegram':
      return { ...common, kind: 'telegram', bot_token: values.bot_token, chat_id: values.chat_id };
    case 'slack':
      return { ...common, kind: 'slack', webhook_url: values.webhook_url };
    case 'email':
      return { ...common, kind: 'email', to: values.to };
    default:
      return { ...common, kind: 'webhook', url: values.url, secret: values.secret };
  }
}

/** A channel's form in a modal: its kind (fixed once saved), name, target, secret and the alerts it carries. */
export function ChannelForm({ channel, onDone }: { channel: Channel | null; onDone: () => void }) {
  const { t } = useTranslation('alerts');
  const [values, setValues] = useState<Values>(() => initial(channel));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { save } = useChannelActions();
  const set = <K extends keyof Values>(key: K, value: Values[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const field = (key: keyof Values) => ({
    error: errors[key] ? translateServerMessage(t, errors[key]) : undefined,
  });
  const secretHint = (hint: string) => (channel?.has_secret ? t(hint) : undefined);

  const submit = () =>
    save.mutate(
      { id: channel?.id ?? null, form: formOf(values) },
      {
        onSuccess: onDone,
        onError: (error) => setErrors(error instanceof ApiError ? error.fieldErrors() : {}),
      },
    );

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Select
          label={t('channels.kind')}
          data={CHANNEL_KINDS.map((kind) => ({ value: kind, label: t(`channels.kinds.${kind}`) }))}
          value={values.kind}
          onChange={(kind) => kind && set('kind', kind as ChannelKind)}
          allowDeselect={false}
          disabled={channel !== null}
          {...field('kind')}
        />
        <TextInput
          label={t('channels.name')}
          required
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          maxLength={255}
          {...field('name')}
        />
        {values.kind === 'telegram' && (
          <>
            <PasswordInput
              label={t('channels.botToken')}
              description={secretHint('channels.botTokenHint')}
              required={!channel}
              value={values.bot_token}
              onChange={(event) => set('bot_token', event.currentTarget.value)}
              {...field('bot_token')}
            />
            <TextInput
              label={t('channels.chatId')}
              description={t('channels.chatIdHint')}
              required
              value={values.chat_id}
              onChange={(event) => set('chat_id', event.currentTarget.value)}
              {...field('chat_id')}
            />
          </>
        )}
        {values.kind === 'slack' && (
          <PasswordInput
            label={t('channels.webhookUrl')}
            description={secretHint('channels.webhookUrlHint')}
            required={!channel}
            value={values.webhook_url}
            onChange={(event) => set('webhook_url', event.currentTarget.value)}
            {...field('webhook_url')}
          />
        )}
        {values.kind === 'email' && (
          <TextInput
            type="email"
            label={t('channels.to')}
            required
            value={values.to}
            onChange={(event) => set('to', event.currentTarget.value)}
            {...field('to')}
          />
        )}
        {values.kind === 'webhook' && (
          <>
            <TextInput
              label={t('channels.url')}
              required
              value={values.url}
              onChange={(event) => set('url', event.currentTarget.value)}
              {...field('url')}
            />
            <PasswordInput
              label={t('channels.secret')}
              description={t('channels.secretHint')}
              required={!channel}
              value={values.secret}
              onChange={(event) => set('secret', event.currentTarget.value)}
              {...field('secret')}
            />
          </>
        )}
        <MultiSelect
          label={t('channels.events')}
          placeholder={values.events.length === 0 ? t('channels.allEvents') : undefined}
          data={ALERT_KINDS.filter((kind) => kind !== 'test').map((kind) => ({
            value: kind,
            label: t(`kinds.${kind}`),
          }))}
          value={values.events}
          onChange={(events) => set('events', events)}
          clearable
          {...field('events')}
        />
        <Switch
          label={t('channels.enabled')}
          checked={values.enabled}
          onChange={(event) => set('enabled', event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('channels.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('channels.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
