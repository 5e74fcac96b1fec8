import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { can } from '@switchyard/domain';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRules } from '../api/useRules';
import { ScreenHeader } from '../components/breadcrumbs/ScreenHeader';
import { formatDateTime } from '../components/list/formatDateTime';
import { useCurrentUser } from '../shared/auth/useCurrentUser';
import { errorText } from '../shared/errors/errorText';
import { useDescribeRule } from './useDescribeRule';

/** /tracker/rules: the workspace's rules, what each watches and does, and when it last ran. */
export function RulesScreen() {
  const { t, i18n } = useTranslation(['rules', 'common']);
  const user = useCurrentUser();
  const rules = useRules();
  const list = rules.data?.list ?? [];
  const describe = useDescribeRule(list);
  return (
    <Stack gap="md">
      <ScreenHeader
        title={t('title')}
        intro={t('intro')}
        actions={
          can(user, 'tracker', 'rule', 'create') && (
            <Button component={Link} to="/tracker/rules/new" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('add')}
            </Button>
          )
        }
      />
      {rules.isError && <Text c="red">{errorText(t, rules.error)}</Text>}
      {rules.isSuccess && list.length === 0 && <Text c="dimmed">{t('list.empty')}</Text>}
      {list.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('list.name')}</Table.Th>
                <Table.Th>{t('list.watchesColumn')}</Table.Th>
                <Table.Th>{t('list.actionsColumn')}</Table.Th>
                <Table.Th>{t('list.enabled')}</Table.Th>
                <Table.Th>{t('list.lastRun')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((rule) => (
                <Table.Tr key={rule.id} data-testid="rule-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/tracker/rules/edit/${rule.id}`} fw={600} size="sm">
                      {rule.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {describe.scope(rule)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{describe.watches(rule)}</Text>
                    <Text size="xs" c="dimmed">
                      {t('list.when', { conditions: describe.conditions(rule) })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{describe.actions(rule)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={rule.enabled ? 'teal' : 'gray'}>
                      {rule.enabled ? t('list.on') : t('list.off')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {rule.last_run_at ? formatDateTime(rule.last_run_at, i18n.language) : t('list.never')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
