import { Fieldset, Stack, Text } from '@mantine/core';
import { CONVERSION_STATES, type ConversionState, type StatusMap } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import type { FormControlProps } from '../types';
import { TagsControl } from './TagsControl';

/** Per state, the first of its values another state lists too, and that state (matched ignoring case). */
function alsoListed(map: StatusMap): Partial<Record<ConversionState, { value: string; other: ConversionState }>> {
  const found: Partial<Record<ConversionState, { value: string; other: ConversionState }>> = {};
  for (const state of CONVERSION_STATES) {
    for (const value of map[state]) {
      const other = CONVERSION_STATES.find(
        (candidate) =>
          candidate !== state && map[candidate].some((listed) => listed.toLowerCase() === value.toLowerCase()),
      );
      if (other) {
        found[state] = { value, other };
        break;
      }
    }
  }
  return found;
}

/**
 * `status-map`: which status values a network sends mean pending, approved or rejected, as
 * three lists of free values (`1`, `sale_ok`). A value listed under two states is named under both as it is
 * typed; the server's messages (`status_map.approved`) show under their list too.
 * Value: `{ pending, approved, rejected }`.
 */
export function StatusMapControl({
  element,
  value,
  onChange,
  label,
  description,
  error,
  fieldErrors,
  disabled,
}: FormControlProps) {
  const { t } = useTranslation();
  const given = (value && typeof value === 'object' ? value : {}) as Partial<StatusMap>;
  const map: StatusMap = {
    pending: given.pending ?? [],
    approved: given.approved ?? [],
    rejected: given.rejected ?? [],
  };
  const twice = alsoListed(map);
  const stateName = (state: ConversionState) => t(`resources:postback-events.states.${state}`);
  return (
    <Fieldset legend={label} variant="filled" disabled={disabled}>
      <Stack gap="sm">
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
        {CONVERSION_STATES.map((state) => {
          const duplicate = twice[state];
          return (
            <TagsControl
              key={state}
              element={{ name: `${element.name}.${state}`, type: 'tags', options: [], input: { freeText: true } }}
              value={map[state]}
              onChange={(next) => onChange({ ...map, [state]: next })}
              label={stateName(state)}
              description={t(`resources:postback-events.stateHints.${state}`)}
              placeholder={t('resources:postback-events.statusValuesPlaceholder')}
              error={
                duplicate
                  ? t('resources:postback-events.listedTwice', {
                      value: duplicate.value,
                      state: stateName(duplicate.other),
                    })
                  : fieldErrors?.[state]
              }
              required={false}
              disabled={Boolean(disabled)}
            />
          );
        })}
        {error && (
          <Text size="xs" c="red">
            {error}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
