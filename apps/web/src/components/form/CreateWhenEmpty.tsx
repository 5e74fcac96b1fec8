import { Anchor, Text } from '@mantine/core';
import { getResource, type ResourceName } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router';
import { useLookupQuery } from '../../api/useLookup';
import { useCan } from '../../app/auth/useCan';

/**
 * Under a choice of `resource` records (issue 26, point 11): once its list is loaded and empty, says so
 * ("No traffic sources yet.") and links to its create screen for a user who may create one, so an empty
 * select is not a dead end. Nothing while loading or when there is something to choose.
 */
export function CreateWhenEmpty({
  resource,
  withText = true,
}: {
  resource: ResourceName;
  /** false where the screen already says there are none (a repeater's empty text): the link only. */
  withText?: boolean;
}) {
  const { t } = useTranslation();
  const definition = getResource(resource);
  const lookup = useLookupQuery(definition);
  const { section, resource: key } = definition.permission;
  const mayCreate = useCan(section, key, 'create');
  const inRouter = useInRouterContext();
  if (!lookup.isSuccess || lookup.data.list.length > 0 || (!withText && !mayCreate)) return null;
  const to = `${definition.route}/create`;
  return (
    <Text size="sm" mt={4} data-testid={`${resource}-none-yet`}>
      {withText && `${t(`resources:${resource}.empty`)} `}
      {mayCreate &&
        (inRouter ? (
          <Anchor component={Link} to={to} fw={600}>
            {t('resources:form.createOne')}
          </Anchor>
        ) : (
          <Anchor href={to} fw={600}>
            {t('resources:form.createOne')}
          </Anchor>
        ))}
    </Text>
  );
}
