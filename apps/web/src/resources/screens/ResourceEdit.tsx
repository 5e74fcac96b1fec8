import { Alert, Center, Loader, Paper, Stack, Tabs, Title } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { resourceKeys } from '../../api/queryKeys';
import { useResourceRecord } from '../../api/useResourceRecord';
import { ResourceBreadcrumbs } from '../../components/breadcrumbs/ResourceBreadcrumbs';
import { useServerMessage } from '../../components/feedback/useServerMessage';
import { EditTabsContext } from '../../components/form/EditTabs';
import { ResourceForm } from '../../components/form/ResourceForm';
import type { FormElement } from '../../components/form/types';
import { recordName } from '../../components/recordName';
import { RecordHistory } from '../../history/RecordHistory';

export interface ResourceEditProps {
  definition: ResourceDefinition;
  elements: readonly FormElement[];
  /** Shown between the title and the form (a new tracker campaign's URL). */
  notice?: ReactNode;
  /** The form takes the page's whole width (the flow editor) instead of a readable column. */
  wide?: boolean;
  /** Under the form, on its Settings tab only (a tracker campaign's "Update cost"). */
  formFooter?: ReactNode;
  /** Tabs after History (a campaign's Simulate): drawn once first opened, then kept, so what was typed stays. */
  tabs?: readonly { value: string; label: string; panel: ReactNode }[];
}

/** The edit screen of any resource: loads `<route>/edit/:id`'s record and shows it, titled by its name and id. */
export function ResourceEdit({ definition, elements, notice, formFooter, wide = false, tabs = [] }: ResourceEditProps) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const { id } = useParams();
  const record = useResourceRecord(definition, id);
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<string | null>('form');
  const [opened, setOpened] = useState<readonly string[]>([]);
  const tabControl = useMemo(() => ({ show: setTab }), []);
  if (tab !== null && tabs.some((extra) => extra.value === tab) && !opened.includes(tab)) setOpened([...opened, tab]);
  // A restore hands back the record; the form starts again from it.
  const [restores, setRestores] = useState(0);
  const fieldLabel = useCallback(
    (field: string) => {
      const label = elements.find((element) => element.name === field)?.label;
      return label ? t(label) : undefined;
    },
    [elements, t],
  );
  const restored = useCallback(
    (restoredRecord: Record<string, unknown>) => {
      queryClient.setQueryData(resourceKeys.record(definition, id), restoredRecord);
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(definition) });
      void queryClient.invalidateQueries({ queryKey: resourceKeys.lookup(definition) });
      setRestores((count) => count + 1);
      setTab('form');
    },
    [queryClient, definition, id],
  );

  return (
    <Stack gap="md">
      <ResourceBreadcrumbs definition={definition} screen="edit" id={id} />
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {record.data
          ? t(`resources:${definition.name}.editTitle`, { id, name: recordName(definition, record.data) })
          : t('resources:breadcrumbs.edit', { id })}
      </Title>
      {notice}
      <EditTabsContext.Provider value={tabControl}>
        <Tabs value={tab} onChange={setTab} keepMounted>
          <Tabs.List mb="md">
            <Tabs.Tab value="form">{t('history:tabs.form')}</Tabs.Tab>
            <Tabs.Tab value="history">{t('history:tabs.history')}</Tabs.Tab>
            {tabs.map((extra) => (
              <Tabs.Tab key={extra.value} value={extra.value}>
                {extra.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Tabs.Panel value="form">
            <Paper withBorder p={wide ? { base: 'sm', sm: 'lg' } : 'lg'} radius="md" maw={wide ? undefined : 760}>
              {record.isPending ? (
                <Center py="xl">
                  <Loader aria-label={t('resources:list.loading')} />
                </Center>
              ) : record.isError ? (
                <Alert color="red" variant="light" role="alert">
                  {translate(record.error.message)}
                </Alert>
              ) : (
                <ResourceForm
                  key={`${id}:${restores}`}
                  definition={definition}
                  elements={elements}
                  record={record.data}
                />
              )}
            </Paper>
            {formFooter}
          </Tabs.Panel>
          <Tabs.Panel value="history">
            {tab === 'history' && id !== undefined && (
              <Stack maw={760}>
                <RecordHistory definition={definition} id={id} fieldLabel={fieldLabel} onRestored={restored} />
              </Stack>
            )}
          </Tabs.Panel>
          {tabs.map((extra) => (
            <Tabs.Panel key={extra.value} value={extra.value}>
              {opened.includes(extra.value) && extra.panel}
            </Tabs.Panel>
          ))}
        </Tabs>
      </EditTabsContext.Provider>
    </Stack>
  );
}
