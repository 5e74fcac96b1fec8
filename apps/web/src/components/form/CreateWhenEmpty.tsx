import { Anchor, Center, Drawer, Loader, Text } from '@mantine/core';
import { getResource, type ResourceName } from '@switchyard/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router';
import { useLookupQuery } from '../../api/useLookup';
import { useCan } from '../../shared/auth/useCan';
import { type CreateFormComponent, useCreateFormLoader } from './createForms';

/**
 * Under a choice of `resource` records: once its list is loaded and empty, says so
 * ("No traffic sources yet.") and offers to create one, for a user who may, so an empty select is not a
 * dead end. "Create one now" opens the create form in a drawer over this one, so what was
 * typed here stays; the new record is then handed to `onCreated`. Where the resource has no such form,
 * it links to its create screen. Nothing while loading or when there is something to choose.
 */
export function CreateWhenEmpty({
  resource,
  withText = true,
  onCreated,
}: {
  resource: ResourceName;
  /** false where the screen already says there are none (a repeater's empty text): the link only. */
  withText?: boolean;
  /** The record created in the drawer (to choose it at once). */
  onCreated?: (saved: Record<string, unknown>) => void;
}) {
  const { t } = useTranslation();
  const definition = getResource(resource);
  const lookup = useLookupQuery(definition);
  const { section, resource: key } = definition.permission;
  const mayCreate = useCan(section, key, 'create');
  const inRouter = useInRouterContext();
  const [opened, setOpened] = useState(false);
  const [Form, setForm] = useState<CreateFormComponent | null>(null);
  const loadForm = useCreateFormLoader(resource);
  useEffect(() => {
    if (!opened || Form || !loadForm) return;
    let current = true;
    void loadForm().then((component) => {
      if (current && component) setForm(() => component);
    });
    return () => {
      current = false;
    };
  }, [opened, Form, loadForm]);
  if (!lookup.isSuccess || lookup.data.list.length > 0 || (!withText && !mayCreate)) return null;
  const to = `${definition.route}/create`;
  const label = t('resources:form.createOne');
  const link =
    inRouter && loadForm ? (
      // A button (not a submit): the form around it is not sent.
      <Anchor component="button" type="button" onClick={() => setOpened(true)} fw={600} fz="sm">
        {label}
      </Anchor>
    ) : inRouter ? (
      <Anchor component={Link} to={to} fw={600}>
        {label}
      </Anchor>
    ) : (
      <Anchor href={to} fw={600}>
        {label}
      </Anchor>
    );
  return (
    <Text size="sm" mt={4} data-testid={`${resource}-none-yet`}>
      {withText && `${t(`resources:${resource}.empty`)} `}
      {mayCreate && link}
      {opened && (
        <Drawer
          opened
          onClose={() => setOpened(false)}
          title={t(`resources:${resource}.createTitle`)}
          // Mantine flips it in Arabic: the drawer comes from the end of the line either way.
          position="right"
          size="lg"
        >
          {Form ? (
            // React sends a portal's events up its component tree: the drawer's submit must not reach the
            // form this link sits in, or that one would be saved too.
            <div onSubmit={(event) => event.stopPropagation()}>
              <Form
                onCreated={(saved) => {
                  setOpened(false);
                  onCreated?.(saved);
                }}
              />
            </div>
          ) : (
            <Center py="xl">
              <Loader aria-label={t('resources:list.loading')} />
            </Center>
          )}
        </Drawer>
      )}
    </Text>
  );
}
