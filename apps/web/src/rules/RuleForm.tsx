import { Button, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { Rule, RulePreviewAnswer } from '@switchyard/domain';
import { IconEye } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useRuleActions } from '../api/useRules';
import { errorText, translateServerMessage } from '../shared/errors/errorText';
import { ActionsEditor } from './ActionsEditor';
import { ConditionsEditor } from './ConditionsEditor';
import { RulePreview } from './RulePreview';
import { formOf, initialValues, type RuleValues } from './ruleValues';
import { ScopeFields } from './ScopeFields';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

interface Props {
  rule: Rule | null;
  onSaved: (rule: Rule) => void;
  onCancel: () => void;
}

/**
 * A rule's form: what it watches, the metric builder, its actions and timing. The preview sends the form as
 * it stands (saved or not) and shows what it would do now; the API's field errors show under their fields.
 */
export function RuleForm({ rule, onSaved, onCancel }: Props) {
  const { t } = useTranslation(['rules', 'common']);
  const [values, setValues] = useState<RuleValues>(() => initialValues(rule));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<RulePreviewAnswer | null>(null);
  const actions = useRuleActions();
  const set = <K extends keyof RuleValues>(key: K, value: RuleValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const error = (path: string) => (errors[path] ? translateServerMessage(t, errors[path]) : undefined);
  const failed = (caught: unknown) => {
    const fields = caught instanceof ApiError ? caught.fieldErrors() : {};
    setErrors(fields);
    setFailure(Object.keys(fields).length > 0 ? t('form.fixFields') : errorText(t, caught));
  };
  const request = { id: rule?.id ?? null, form: formOf(values) };

  const save = () => {
    setFailure(null);
    actions.save.mutate(request, { onSuccess: onSaved, onError: failed });
  };
  const runPreview = () => {
    setFailure(null);
    setPreview(null);
    actions.preview.mutate(request, {
      onSuccess: (answer) => {
        setErrors({});
        setPreview(answer);
      },
      onError: failed,
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <Stack gap="md">
        <Section title={t('form.general')}>
          <TextInput
            label={t('form.name')}
            required
            maxLength={255}
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={error('name')}
          />
          <Switch
            label={t('form.enabled')}
            checked={values.enabled}
            onChange={(event) => set('enabled', event.currentTarget.checked)}
          />
        </Section>
        <Section title={t('form.watches')}>
          <ScopeFields values={values} set={set} error={error} />
        </Section>
        <Section title={t('form.conditions')}>
          <ConditionsEditor conditions={values.conditions} onChange={(list) => set('conditions', list)} error={error} />
        </Section>
        <Section title={t('form.actions')}>
          <ActionsEditor
            actions={values.actions}
            groupBy={values.group_by}
            saved={rule !== null}
            onChange={(list) => set('actions', list)}
            error={error}
          />
        </Section>
        <Section title={t('form.timing')}>
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label={t('form.schedule')}
              inputMode="numeric"
              value={values.schedule}
              onChange={(event) => set('schedule', event.currentTarget.value)}
              w={200}
              error={error('schedule')}
            />
            <TextInput
              label={t('form.cooldown')}
              inputMode="numeric"
              value={values.cooldown}
              onChange={(event) => set('cooldown', event.currentTarget.value)}
              w={200}
              error={error('cooldown')}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {t('form.cooldownHint')}
          </Text>
        </Section>
        {failure && (
          <Text c="red" size="sm" role="alert">
            {failure}
          </Text>
        )}
        <Group justify="space-between" wrap="wrap">
          <Button
            variant="light"
            leftSection={<IconEye size={16} aria-hidden />}
            loading={actions.preview.isPending}
            onClick={runPreview}
          >
            {t('form.preview')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onCancel}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={actions.save.isPending}>
              {t('form.save')}
            </Button>
          </Group>
        </Group>
        {preview && <RulePreview preview={preview} />}
      </Stack>
    </form>
  );
}
