import { ActionIcon, Button, Code, Group, Modal, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  CUSTOM_METRIC_FORMULA_MAX,
  CUSTOM_METRIC_NAME_MAX,
  type CustomMetric,
  parseFormula,
  REPORT_METRICS,
} from '@switchyard/domain';
import { IconMathFunction, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { useCan } from '../shared/auth/useCan';
import { useCustomMetrics, useDeleteCustomMetric, useSaveCustomMetric } from './useCustomMetrics';

/** The "Metrics" button of the reports screen, opening the custom metrics manager. */
export function CustomMetricsButton() {
  const { t } = useTranslation('reports');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconMathFunction size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {t('customMetrics.open')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('customMetrics.title')} size="lg">
        <CustomMetricsManager />
      </Modal>
    </>
  );
}

/**
 * The workspace's custom metrics: listed with their formulas; added, edited and deleted by whoever may
 * change campaigns. A formula is checked as it is typed, with the same parser the server uses.
 */
export function CustomMetricsManager() {
  const { t } = useTranslation('reports');
  const canEdit = useCan('tracker', 'campaign', 'update');
  const metrics = useCustomMetrics();
  const remove = useDeleteCustomMetric();
  const [editing, setEditing] = useState<CustomMetric | 'new' | null>(null);

  if (editing !== null) {
    return <CustomMetricForm metric={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />;
  }
  const list = metrics.data ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('customMetrics.intro')}
      </Text>
      {metrics.isLoading ? null : list.length === 0 ? (
        <Text size="sm">{t('customMetrics.empty')}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('customMetrics.name')}</Table.Th>
              <Table.Th>{t('customMetrics.formula')}</Table.Th>
              {canEdit && <Table.Th aria-label={t('customMetrics.actions')} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((metric) => (
              <Table.Tr key={metric.id}>
                <Table.Td>{metric.name}</Table.Td>
                <Table.Td>
                  <Code>{metric.formula}</Code>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('customMetrics.edit', { name: metric.name })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('customMetrics.edit', { name: metric.name })}
                          onClick={() => setEditing(metric)}
                        >
                          <IconPencil size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('customMetrics.delete', { name: metric.name })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('customMetrics.delete', { name: metric.name })}
                          loading={remove.isPending && remove.variables === metric.id}
                          onClick={() =>
                            modals.openConfirmModal({
                              title: t('customMetrics.delete', { name: metric.name }),
                              children: (
                                <Text size="sm">{t('customMetrics.confirmDelete', { name: metric.name })}</Text>
                              ),
                              labels: { confirm: t('customMetrics.deleteConfirm'), cancel: t('customMetrics.cancel') },
                              confirmProps: { color: 'red' },
                              onConfirm: () => remove.mutate(metric.id),
                            })
                          }
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canEdit && (
        <Group>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('customMetrics.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function CustomMetricForm({ metric, onDone }: { metric: CustomMetric | null; onDone: () => void }) {
  const { t } = useTranslation('reports');
  const save = useSaveCustomMetric();
  const [name, setName] = useState(metric?.name ?? '');
  const [formula, setFormula] = useState(metric?.formula ?? '');
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const parsed = parseFormula(formula);
  const formulaError =
    (touched || formula !== '') && !parsed.ok
      ? t('customMetrics.formulaError', { position: parsed.position })
      : serverErrors.formula;
  const nameError = touched && name.trim() === '' ? t('customMetrics.nameRequired') : serverErrors.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok || name.trim() === '') return;
    save.mutate(
      { id: metric?.id, form: { name: name.trim(), formula } },
      {
        onSuccess: onDone,
        onError: (error) => setServerErrors(error instanceof ApiError ? error.fieldErrors() : { name: error.message }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('customMetrics.name')}
          value={name}
          maxLength={CUSTOM_METRIC_NAME_MAX}
          required
          error={nameError}
          onChange={(event) => setName(event.currentTarget.value)}
          data-autofocus
        />
        <TextInput
          label={t('customMetrics.formula')}
          description={t('customMetrics.formulaHint', { figures: REPORT_METRICS.join(', ') })}
          placeholder="revenue / clicks * 1000"
          value={formula}
          maxLength={CUSTOM_METRIC_FORMULA_MAX}
          required
          error={formulaError}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          onChange={(event) => {
            setFormula(event.currentTarget.value);
            setServerErrors(({ formula: _formula, ...rest }) => rest);
          }}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone}>
            {t('customMetrics.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('customMetrics.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
