import { Paper, Stack, Title } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { ResourceBreadcrumbs } from '../breadcrumbs/ResourceBreadcrumbs';
import { ResourceForm, type ResourceFormProps } from './ResourceForm';
import type { FormElement } from './types';

export interface ResourceCreateProps {
  definition: ResourceDefinition;
  elements: readonly FormElement[];
  afterCreate?: ResourceFormProps['afterCreate'];
  /** The form takes the page's whole width (the flow editor) instead of a readable column. */
  wide?: boolean;
}

/** The create screen of any resource: breadcrumbs, title and an empty form. */
export function ResourceCreate({ definition, elements, afterCreate, wide = false }: ResourceCreateProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <ResourceBreadcrumbs definition={definition} screen="create" />
      <Title order={1} size="h2">
        {t(`resources:${definition.name}.createTitle`)}
      </Title>
      <Paper withBorder p={wide ? { base: 'sm', sm: 'lg' } : 'lg'} radius="md" maw={wide ? undefined : 760}>
        <ResourceForm definition={definition} elements={elements} afterCreate={afterCreate} />
      </Paper>
    </Stack>
  );
}
