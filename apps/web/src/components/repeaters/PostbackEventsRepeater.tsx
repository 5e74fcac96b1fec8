import { Group, Select, Stack, Switch, Text } from '@mantine/core';
import { type TPostbackEventEntry, TRAFFIC_SOURCE_TEMPLATES, unusedPostbackEvents } from '@switchyard/domain';
import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { LookupOption } from '../../api/useLookup';
import { CreateWhenEmpty } from '../form/CreateWhenEmpty';
import { wrapperProps } from '../form/fieldProps';
import { insertAt, MacroMenu } from '../form/MacroMenu';
import { ResourceFormContext } from '../form/ResourceFormContext';
import type { FormControlProps } from '../form/types';
import { Repeater } from './Repeater';
import { RepeaterField } from './RepeaterField';
import { repeaterProps } from './repeaterProps';
import { locateInRows, rowErrors } from './rowErrors';
import { TestPostbackButton } from './TestPostbackButton';
import { TrimmedTextInput } from './TrimmedTextInput';

/** The entry as the form holds it: `postback_url` only where the element shows it. */
export type PostbackEventEntry = Omit<TPostbackEventEntry, 'postback_url'> & { postback_url?: string };

const FLAGS = [
  ['is_conversion', 'isConversion'],
  ['send_to_traffic_source', 'sendToTrafficSource'],
  ['send_zero_conversions', 'sendZeroConversions'],
] as const;

export interface PostbackEventsRepeaterProps extends FormControlProps {
  /** The postback events to choose from (§3.1 lookup: external_id and name). */
  events: readonly LookupOption[];
}

/**
 * `postback-events-repeater`: `[{ postback_event_external_id, postback_url?, is_conversion,
 * send_to_traffic_source, send_zero_conversions }]` (§3.6). Each event once: a row's select offers only
 * the events no other row uses, a new row takes the first unused one, and Add shows only while one
 * remains (§4). `element.input.showPostbackUrl` adds the postback URL (traffic sources) and its "Send test
 * postback" button. Messages inside the value (`0.postback_event_external_id`) show under that row's input:
 * the rows are the stored array.
 */
export function PostbackEventsRepeater(props: PostbackEventsRepeaterProps) {
  const { element, value, onChange, error, fieldErrors, disabled, events } = props;
  const { t } = useTranslation();
  const rows = Array.isArray(value) ? (value as PostbackEventEntry[]) : [];
  const showPostbackUrl = element.input?.showPostbackUrl === true;
  const options = events.map((event) => ({ value: String(event.value), label: event.label }));
  const unused = unusedPostbackEvents(rows, options);
  // A source started from a template: its first postback row takes the template's URL, so the
  // URL is saved with the source and still there when it is opened again.
  const form = useContext(ResourceFormContext);
  const templateUrl = showPostbackUrl
    ? (TRAFFIC_SOURCE_TEMPLATES.find((template) => template.key === form?.values.template)?.postbackUrl ?? '')
    : '';
  const newRow = (eventId: string): PostbackEventEntry => ({
    postback_event_external_id: eventId,
    ...(showPostbackUrl ? { postback_url: rows.some((row) => row.postback_url) ? '' : templateUrl } : {}),
    is_conversion: false,
    send_to_traffic_source: templateUrl !== '' && !rows.some((row) => row.postback_url),
    send_zero_conversions: false,
  });
  const errors = rowErrors(
    error,
    fieldErrors,
    locateInRows(rows.length, [
      'postback_event_external_id',
      ...(showPostbackUrl ? ['postback_url'] : []),
      ...FLAGS.map(([field]) => field),
    ]),
  );

  const optionsFor = (row: PostbackEventEntry) => {
    const available = unusedPostbackEvents(rows, options, row.postback_event_external_id);
    // An event missing from the lookup (archived since) still shows as chosen.
    const listed = available.some((option) => option.value === row.postback_event_external_id);
    return listed || !row.postback_event_external_id
      ? available
      : [{ value: row.postback_event_external_id, label: row.postback_event_external_id }, ...available];
  };

  return (
    <RepeaterField {...wrapperProps(props)} error={errors.error}>
      <Repeater<PostbackEventEntry>
        rows={rows}
        onChange={onChange}
        createRow={() => newRow(unused[0]?.value ?? '')}
        hideAdd={unused.length === 0}
        duplicable={false}
        {...repeaterProps(props)}
        addLabel={t('controls:repeaters.postbackEvents.add')}
        emptyText={t('controls:repeaters.postbackEvents.empty')}
        footer={
          events.length === 0 ? (
            // None to choose yet: a link to create one rather than a dead end.
            <CreateWhenEmpty
              resource="postback-events"
              withText={false}
              // The event made in the drawer gets its row at once.
              onCreated={(saved) => onChange([...rows, newRow(String(saved.external_id ?? ''))])}
            />
          ) : (
            rows.length > 0 &&
            unused.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('controls:repeaters.postbackEvents.allUsed')}
              </Text>
            )
          )
        }
        renderRow={(row, index, update) => (
          <Stack gap="xs">
            <Group gap="xs" grow align="flex-start" wrap="wrap">
              <Select
                size="xs"
                label={t('controls:repeaters.postbackEvents.event')}
                data={optionsFor(row)}
                value={row.postback_event_external_id || null}
                onChange={(chosen) => chosen && update({ ...row, postback_event_external_id: chosen })}
                allowDeselect={false}
                error={errors.at(index, 'postback_event_external_id')}
                searchable
                nothingFoundMessage={t('resources:form.noResults')}
                required
                disabled={disabled}
              />
              {showPostbackUrl && (
                <Stack gap={0}>
                  <Group gap="xs" align="flex-end" wrap="nowrap">
                    <TrimmedTextInput
                      size="xs"
                      type="url"
                      placeholder="https://"
                      label={t('controls:repeaters.postbackEvents.postbackUrl')}
                      value={row.postback_url ?? ''}
                      onChange={(url) => update({ ...row, postback_url: url })}
                      error={errors.at(index, 'postback_url')}
                      maxLength={2048}
                      disabled={disabled}
                      style={{ flex: 1 }}
                    />
                    <TestPostbackButton url={row.postback_url ?? ''} disabled={disabled} />
                  </Group>
                  <MacroMenu
                    onInsert={(token) =>
                      update({ ...row, postback_url: insertAt(row.postback_url ?? '', token, null, null) })
                    }
                    disabled={disabled}
                  />
                </Stack>
              )}
            </Group>
            <Group gap="md">
              {FLAGS.map(([field, key]) => (
                <Switch
                  key={field}
                  size="xs"
                  label={t(`controls:repeaters.postbackEvents.${key}`)}
                  checked={Boolean(row[field])}
                  onChange={(event) => update({ ...row, [field]: event.currentTarget.checked })}
                  error={errors.at(index, field)}
                  disabled={disabled}
                />
              ))}
            </Group>
          </Stack>
        )}
      />
    </RepeaterField>
  );
}
