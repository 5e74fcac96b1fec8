import { getResource, TRAFFIC_SOURCE_TEMPLATES } from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { countColumn, nameColumn, type Row, statusColumn, timestampColumns } from '../screens/columns';
import { moneyElement, nameElement } from '../screens/formElements';
import { useCostModelOptions } from '../screens/referenceOptions';
import { type FormMode, resourceScreens } from '../screens/resourceScreens';
import { templateElement } from '../screens/templateElement';
import { useFormatMoney } from '../screens/useFormatMoney';

const trafficSources = getResource('traffic-sources');
const postbackEvents = getResource('postback-events');

function useTrafficSourceColumns(): ListColumn<Row>[] {
  const formatMoney = useFormatMoney();
  return useMemo(
    () => [
      nameColumn,
      {
        accessor: 'default_cost',
        label: 'resources:traffic-sources.fields.default_cost',
        // The model is shown by its code (CPC, CPM, …), as operators write it.
        render: (source) => `${formatMoney(source.default_cost)} · ${String(source.cost_model ?? '')}`,
      },
      countColumn('parameters', 'resources:traffic-sources.fields.parameters'),
      countColumn('postback_events', 'resources:fields.postback_events'),
      statusColumn,
      ...timestampColumns,
    ],
    [formatMoney],
  );
}

function useTrafficSourceFormElements(mode: FormMode): readonly FormElement[] {
  const postbackEventOptions = useLookup(postbackEvents);
  const costModelOptions = useCostModelOptions();
  const elements = useMemo(
    (): FormElement[] => [
      nameElement(),
      {
        name: 'cost_model',
        type: 'radio-with-info',
        label: 'resources:fields.cost_model',
        options: costModelOptions,
        value: 'CPC',
      },
      moneyElement('default_cost', 'resources:traffic-sources.fields.default_cost'),
      {
        name: 'cost_parameter',
        type: 'input',
        label: 'resources:traffic-sources.fields.cost_parameter',
        labelDescription: 'resources:traffic-sources.costParameterHint',
        input: { autoComplete: 'off', dir: 'ltr', placeholder: 'cost' },
      },
      {
        name: 'parameters',
        type: 'ts-parameters-repeater',
        label: 'resources:traffic-sources.fields.parameters',
        labelDescription: 'resources:traffic-sources.parametersHint',
        value: [],
      },
      {
        name: 'postback_events',
        type: 'postback-events-repeater',
        label: 'resources:fields.postback_events',
        labelDescription: 'resources:traffic-sources.postbackEventsHint',
        options: postbackEventOptions,
        value: [],
        // §3.6: a traffic source names where each postback goes.
        input: { showPostbackUrl: true },
      },
    ],
    [postbackEventOptions, costModelOptions],
  );
  // A new source can start from a well-known one (issue 26): its parameters, cost parameter and postback URL.
  return useMemo(
    () => (mode === 'create' ? [templateElement(TRAFFIC_SOURCE_TEMPLATES, elements), ...elements] : elements),
    [mode, elements],
  );
}

/** /admin/traffic-sources: (a template to start from,) name, cost, parameters, postback events. */
export const trafficSourceScreens = resourceScreens({
  definition: trafficSources,
  useColumns: useTrafficSourceColumns,
  useFormElements: useTrafficSourceFormElements,
});
