import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { can } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useRule, useRuleActions } from '../api/useRules';
import { ScreenBreadcrumbs } from '../components/breadcrumbs/ScreenBreadcrumbs';
import { useCurrentUser } from '../shared/auth/useCurrentUser';
import { ErrorPage } from '../shared/errors/ErrorPage';
import { errorText } from '../shared/errors/errorText';
import { RuleForm } from './RuleForm';
import { RuleRuns } from './RuleRuns';

/** /tracker/rules/new and /tracker/rules/edit/:id: the form, and for a saved rule the log of its runs. */
export function RuleEditScreen() {
  const { t } = useTranslation(['rules', 'common']);
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { id: idText } = useParams();
  const id = idText === undefined ? null : Number(idText);
  const valid = id === null || (Number.isSafeInteger(id) && id > 0);
  const rule = useRule(valid ? id : null);
  const { remove } = useRuleActions();
  const toList = () => navigate('/tracker/rules');

  if (!valid) return <ErrorPage status={404} />;
  if (id !== null && rule.isError) return <Text c="red">{errorText(t, rule.error)}</Text>;
  if (id !== null && !rule.data) return null;
  const saved = rule.data ?? null;
  const title = saved ? saved.name : t('add');
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('delete'),
      children: <Text size="sm">{t('deleteConfirm', { name: saved?.name ?? '' })}</Text>,
      labels: { confirm: t('delete'), cancel: t('form.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => saved && remove.mutate(saved.id, { onSuccess: toList }),
    });
  return (
    <Stack gap="md">
      <ScreenBreadcrumbs title={title} />
      <Group justify="space-between" align="flex-start">
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {saved && can(user, 'tracker', 'rule', 'archive') && (
          <Button variant="subtle" color="red" onClick={confirmDelete}>
            {t('delete')}
          </Button>
        )}
      </Group>
      <RuleForm key={saved?.updated_at ?? 'new'} rule={saved} onSaved={toList} onCancel={toList} />
      {saved && <RuleRuns ruleId={saved.id} />}
    </Stack>
  );
}
