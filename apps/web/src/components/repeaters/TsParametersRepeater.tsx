import { Group, SimpleGrid, Switch, Text, TextInput } from '@mantine/core';
import {
  canAddParameter,
  MAX_TRAFFIC_SOURCE_PARAMETERS,
  renumberParameters,
  type TTrafficSourceParameter,
} from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../form/fieldProps';
import type { FormControlProps } from '../form/types';
import { Repeater } from './Repeater';
import { RepeaterField } from './RepeaterField';
import { repeaterProps } from './repeaterProps';
import { locateInRows, rowErrors } from './rowErrors';
import { TrimmedTextInput } from './TrimmedTextInput';

type TrafficSourceParameter = TTrafficSourceParameter;

const FIELDS = ['name', 'ts_parameter', 'ts_token', 'internal_token', 'enabled'] as const;

/** The input only (a `dir` prop would turn the whole field, label included). */
const LEFT_TO_RIGHT = { input: { direction: 'ltr' } } as const;

/**
 * `ts-parameters-repeater`: `[{ name, ts_parameter, ts_token, internal_token, enabled }]` (§3.7). At most
 * 10 rows, the Add button gone at 10 (§5.5); internal tokens follow the position, var1, var2, … after
 * every delete and reorder (§4). Each token input has the test id `<element name>-internal-token`.
 * Messages inside the value (`1.name`) show under that row's input: the rows are the stored array.
 */
export function TsParametersRepeater(props: FormControlProps) {
  const { element, value, onChange, error, fieldErrors, disabled } = props;
  const { t } = useTranslation();
  const rows = Array.isArray(value) ? (value as TrafficSourceParameter[]) : [];
  const atLimit = !canAddParameter(rows);
  const errors = rowErrors(error, fieldErrors, locateInRows(rows.length, FIELDS));

  return (
    <RepeaterField {...wrapperProps(props)} error={errors.error}>
      <Repeater<TrafficSourceParameter>
        rows={rows}
        onChange={onChange}
        normalize={renumberParameters}
        maxRows={MAX_TRAFFIC_SOURCE_PARAMETERS}
        createRow={() => ({
          name: '',
          ts_parameter: '',
          ts_token: '',
          internal_token: `var${rows.length + 1}`,
          enabled: true,
        })}
        {...repeaterProps(props)}
        addLabel={t('controls:repeaters.tsParameters.add')}
        emptyText={t('controls:repeaters.tsParameters.empty')}
        footer={
          atLimit && (
            <Text size="sm" c="dimmed">
              {t('controls:repeaters.tsParameters.limit', { max: MAX_TRAFFIC_SOURCE_PARAMETERS })}
            </Text>
          )
        }
        renderRow={(row, index, update) => (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs" style={{ flex: 1, minInlineSize: '12rem' }}>
              <TrimmedTextInput
                size="xs"
                label={t('controls:repeaters.tsParameters.name')}
                value={row.name}
                onChange={(name) => update({ ...row, name })}
                error={errors.at(index, 'name')}
                maxLength={255}
                required
                disabled={disabled}
              />
              <TrimmedTextInput
                size="xs"
                label={t('controls:repeaters.tsParameters.tsParameter')}
                value={row.ts_parameter}
                onChange={(tsParameter) => update({ ...row, ts_parameter: tsParameter })}
                error={errors.at(index, 'ts_parameter')}
                // Parameters and macros (`${SUBID}`) read left to right in Arabic too; the label stays.
                styles={LEFT_TO_RIGHT}
                maxLength={64}
                required
                disabled={disabled}
              />
              <TrimmedTextInput
                size="xs"
                label={t('controls:repeaters.tsParameters.tsToken')}
                value={row.ts_token ?? ''}
                onChange={(tsToken) => update({ ...row, ts_token: tsToken })}
                error={errors.at(index, 'ts_token')}
                styles={LEFT_TO_RIGHT}
                maxLength={64}
                disabled={disabled}
              />
              <TextInput
                size="xs"
                variant="filled"
                label={t('controls:repeaters.tsParameters.internalToken')}
                value={row.internal_token}
                readOnly
                error={errors.at(index, 'internal_token')}
                data-testid={`${element.name}-internal-token`}
              />
            </SimpleGrid>
            <Switch
              size="sm"
              mb={6}
              label={t('controls:repeaters.tsParameters.enabled')}
              checked={row.enabled !== false}
              onChange={(event) => update({ ...row, enabled: event.currentTarget.checked })}
              error={errors.at(index, 'enabled')}
              disabled={disabled}
            />
          </Group>
        )}
      />
    </RepeaterField>
  );
}
