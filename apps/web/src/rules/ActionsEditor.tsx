import { ActionIcon, Anchor, Button, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { ACTION_GROUPS, RULE_ACTIONS, type RuleActionKind, type RuleGroup } from '@switchyard/domain';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ActionValues, NEW_ACTION } from './ruleValues';

const MAX_ACTIONS = 10;

interface Props {
  actions: ActionValues[];
  groupBy: RuleGroup;
  /** A saved rule: an empty webhook secret keeps the stored one. */
  saved: boolean;
  onChange: (actions: ActionValues[]) => void;
  error: (path: string) => string | undefined;
}

/** What a rule does to each matching row, with each action's target; actions that do not fit the grouping are off. */
export function ActionsEditor({ actions, groupBy, saved, onChange, error }: Props) {
  const { t } = useTranslation('rules');
  const change = (index: number, patch: Partial<ActionValues>) =>
    onChange(actions.map((action, at) => (at === index ? { ...action, ...patch } : action)));
  const options = RULE_ACTIONS.map((type) => ({
    value: type,
    label: t(`actions.${type}`),
    disabled: !ACTION_GROUPS[type].includes(groupBy),
  }));
  return (
    <Stack gap="xs">
      {actions.map((action, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: actions have no identity but their place
        <Stack key={index} gap={4} data-testid="rule-action">
          <Group gap="xs" align="flex-start" wrap="wrap">
            <Select
              label={t('form.action')}
              data={options}
              value={action.type}
              onChange={(type) => type && change(index, { type: type as RuleActionKind })}
              allowDeselect={false}
              w={220}
              error={error(`actions.${index}.type`)}
            />
            {action.type === 'set_weight' && (
              <TextInput
                label={t('form.weight')}
                inputMode="numeric"
                value={action.weight}
                onChange={(event) => change(index, { weight: event.currentTarget.value })}
                w={110}
                error={error(`actions.${index}.weight`)}
              />
            )}
            {action.type === 'webhook' && (
              <>
                <TextInput
                  label={t('form.url')}
                  value={action.url}
                  onChange={(event) => change(index, { url: event.currentTarget.value })}
                  miw={240}
                  style={{ flex: 1 }}
                  error={error(`actions.${index}.url`)}
                />
                <PasswordInput
                  label={t('form.secret')}
                  description={saved ? t('form.secretKept') : undefined}
                  value={action.secret}
                  onChange={(event) => change(index, { secret: event.currentTarget.value })}
                  w={200}
                  error={error(`actions.${index}.secret`)}
                />
              </>
            )}
            {actions.length > 1 && (
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={t('form.removeAction', { number: index + 1 })}
                onClick={() => onChange(actions.filter((_, at) => at !== index))}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t(`actionHints.${action.type}`)}
            {action.type === 'notify' && (
              <>
                {' '}
                <Anchor component={Link} to="/notifications/channels" size="xs" underline="always">
                  {t('form.channelsLink')}
                </Anchor>
              </>
            )}
          </Text>
        </Stack>
      ))}
      {error('actions') && (
        <Text size="sm" c="red">
          {error('actions')}
        </Text>
      )}
      {actions.length < MAX_ACTIONS && (
        <Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => onChange([...actions, { ...NEW_ACTION }])}
          >
            {t('form.addAction')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
