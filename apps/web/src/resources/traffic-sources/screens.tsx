import { getResource, TRAFFIC_SOURCE_TEMPLATES } from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { useFormatMoney } from '../../shared/reporting/useFormatMoney';
import { countColumn, nameColumn, type Row, statusColumn, timestampColumns } from '../screens/columns';
import { moneyElement, nameElement } from '../screens/formElements';
import { useCostModelOptions } from '../screens/referenceOptions';
import { type FormMode, resourceScreens } from '../screens/resourceScreens';
import { templateElement } from '../screens/templateElement';

const trafficSources = getResource('traffic-sources');
const postbackEvents = getResource('postback-events');
/** The templates' postback URLs: a row holding one was filled by a template, not typed. */
const TEMPLATE_URLS = new Set(TRAFFIC_SOURCE_TEMPLATES.map((template) => template.postbackUrl).filter(Boolean));

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
  // A new source can start from a well-known one: its parameters, cost parameter and postback URL.
  return useMemo(() => {
    if (mode !== 'create') return elements;
    const template = templateElement(TRAFFIC_SOURCE_TEMPLATES, elements);
    const fill = template.onChange;
    const withPostback: FormElement = {
      ...template,
      // The template's postback URL goes into a postback row, saved with the source and shown
      // when it is opened again; with no postback event yet, the row comes with the first one created.
      onChange: (key, form) => {
        fill?.(key, form);
        const url = TRAFFIC_SOURCE_TEMPLATES.find((candidate) => candidate.key === key)?.postbackUrl ?? '';
        const rows = (Array.isArray(form.values.postback_events) ? form.values.postback_events : []) as Record<
          string,
          unknown
        >[];
        const [only] = rows;
        if (rows.length === 1 && only && (only.postback_url === '' || TEMPLATE_URLS.has(String(only.postback_url)))) {
          // Another template chosen: the row it filled follows.
          form.setValue('postback_events', [{ ...only, postback_url: url, send_to_traffic_source: url !== '' }]);
          return;
        }
        const [first] = postbackEventOptions;
        if (url === '' || !first || rows.length > 0) return;
        form.setValue('postback_events', [
          {
            postback_event_external_id: String(first.value),
            postback_url: url,
            is_conversion: false,
            send_to_traffic_source: true,
            send_zero_conversions: false,
          },
        ]);
      },
    };
    return [withPostback, ...elements];
  }, [mode, elements, postbackEventOptions]);
}

/** /admin/traffic-sources: (a template to start from,) name, cost, parameters, postback events. */
export const trafficSourceScreens = resourceScreens({
  definition: trafficSources,
  useColumns: useTrafficSourceColumns,
  useFormElements: useTrafficSourceFormElements,
});
