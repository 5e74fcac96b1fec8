import { Stack } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useParams } from 'react-router';
import { ResourceCreate } from '../../components/form/ResourceCreate';
import { ResourceEdit } from '../screens/ResourceEdit';
import { DomainStatusPanel } from './DomainStatusPanel';
import { useDomainFormElements } from './useDomainFormElements';

const domains = getResource('domains');

/** /admin/domains/create */
export function DomainCreateScreen() {
  return <ResourceCreate definition={domains} elements={useDomainFormElements()} />;
}

/** /admin/domains/edit/:id: the form, then the domain's DNS, certificate and upload. */
export function DomainEditScreen() {
  const { id } = useParams();
  return (
    <Stack gap="md">
      <ResourceEdit definition={domains} elements={useDomainFormElements()} />
      <DomainStatusPanel id={id} />
    </Stack>
  );
}
