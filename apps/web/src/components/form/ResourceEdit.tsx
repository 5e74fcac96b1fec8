import { Alert, Center, Loader, Paper, Stack, Title } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useResourceRecord } from '../../api/useResourceRecord';
import { ResourceBreadcrumbs } from '../breadcrumbs/ResourceBreadcrumbs';
import { useServerMessage } from '../feedback/useServerMessage';
import { recordName } from '../recordName';
import { ResourceForm } from './ResourceForm';
import type { FormElement } from './types';

export interface ResourceEditProps {
  definition: ResourceDefinition;
  elements: readonly FormElement[];
  /** Shown between the title and the form (a new tracker campaign's URL). */
  notice?: ReactNode;
}

/** The edit screen of any resource: loads `<route>/edit/:id`'s record and shows it, titled by its name and id. */
export function ResourceEdit({ definition, elements, notice }: ResourceEditProps) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const { id } = useParams();
  const record = useResourceRecord(definition, id);

  return (
    <Stack gap="md">
      <ResourceBreadcrumbs definition={definition} screen="edit" id={id} />
      <Title order={2}>
        {record.data
          ? t(`resources:${definition.name}.editTitle`, { id, name: recordName(definition, record.data) })
          : t('resources:breadcrumbs.edit', { id })}
      </Title>
      {notice}
      <Paper withBorder p="lg" radius="md" maw={760}>
        {record.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('resources:list.loading')} />
          </Center>
        ) : record.isError ? (
          <Alert color="red" variant="light" role="alert">
            {translate(record.error.message)}
          </Alert>
        ) : (
          <ResourceForm key={id} definition={definition} elements={elements} record={record.data} />
        )}
      </Paper>
    </Stack>
  );
}
