import { getResource } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';

const campaigns = getResource('tracker-campaigns');

/** The domain form: its name, what `/` and unknown paths do, and the three switches. */
export function useDomainFormElements(): readonly FormElement[] {
  const { t } = useTranslation('domains');
  const campaignOptions = useLookup(campaigns);
  return useMemo(
    () => [
      {
        name: 'name',
        type: 'input',
        label: 'resources:domains.fields.name',
        labelDescription: 'domains:nameHint',
        placeholder: 'track.example.com',
        required: true,
        input: { dir: 'ltr' },
      },
      {
        name: 'index_campaign',
        type: 'select',
        label: 'resources:domains.fields.index_campaign',
        labelDescription: 'domains:indexHint',
        placeholder: t('indexNone'),
        options: campaignOptions,
        allowEmpty: true,
        value: null,
      },
      {
        name: 'not_found',
        type: 'select',
        label: 'resources:domains.fields.not_found',
        labelDescription: 'domains:notFoundHint',
        options: [{ value: '404', label: t('notFound404') }, ...campaignOptions],
        value: '404',
        required: true,
      },
      {
        name: 'https_only',
        type: 'switch',
        label: 'resources:domains.fields.https_only',
        labelDescription: 'domains:httpsOnlyHint',
        value: false,
      },
      {
        name: 'dashboard',
        type: 'switch',
        label: 'resources:domains.fields.dashboard',
        labelDescription: 'domains:dashboardHint',
        value: false,
      },
      {
        name: 'noindex',
        type: 'switch',
        label: 'resources:domains.fields.noindex',
        labelDescription: 'domains:noindexHint',
        value: true,
      },
    ],
    [t, campaignOptions],
  );
}
