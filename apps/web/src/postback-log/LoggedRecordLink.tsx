import { Anchor, Text } from '@mantine/core';
import { can, type LoggedRecord, RESOURCES } from '@switchyard/domain';
import { Link } from 'react-router';
import { useCurrentUser } from '../shared/auth/useCurrentUser';

/**
 * A record a log line names (a campaign, a postback event), by name, linking to its edit screen for a
 * user who may open it. A deleted record shows its id.
 */
export function LoggedRecordLink({ record }: { record: LoggedRecord | null }) {
  const user = useCurrentUser();
  if (!record) return null;
  const label = record.name ?? record.external_id;
  const definition = RESOURCES.find((resource) => resource.name === record.kind);
  const allowed = definition?.route && can(user, definition.permission.section, definition.permission.resource, 'get');
  if (!definition?.route || !allowed || record.name === null) return <Text size="sm">{label}</Text>;
  return (
    <Anchor component={Link} to={`${definition.route}/edit/${encodeURIComponent(record.external_id)}`} size="sm">
      {label}
    </Anchor>
  );
}
