import { getResource, type ResourceDefinition } from '@switchyard/domain';
import { useMemo } from 'react';
import { useCountryOptions } from '../../api/useCountryOptions';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';
import { moneyElement, nameElement, urlElement } from '../screens/formElements';
import { useCapTimezoneOptions, useCurrencySelectOptions } from '../screens/referenceOptions';
import type { FormMode } from '../screens/resourceScreens';

const affiliateNetworks = getResource('affiliate-networks');

/**
 * The offer form: an API offer has every field; a tracker offer has the same without
 * `enabled`, vars and email weights, and its backup is another tracker offer.
 */
export function useOfferFormElements(definition: ResourceDefinition, _mode: FormMode): readonly FormElement[] {
  const isApi = definition.name === 'offers';
  const networkOptions = useLookup(affiliateNetworks);
  const currencyOptions = useCurrencySelectOptions();
  const countryOptions = useCountryOptions();
  const timezoneOptions = useCapTimezoneOptions();

  return useMemo(() => {
    const apiOnly = (...elements: FormElement[]) => (isApi ? elements : []);
    return [
      nameElement(),
      {
        name: 'affiliate_network_external_id',
        type: 'select',
        label: 'resources:fields.affiliate_network',
        placeholder: 'resources:offers.networkPlaceholder',
        options: networkOptions,
        createWhenEmpty: 'affiliate-networks',
        allowEmpty: true,
      },
      urlElement(isApi ? 'resources:offers.urlHint' : 'resources:tracker-offers.urlHint'),
      ...apiOnly({ name: 'enabled', type: 'switch', label: 'resources:offers.fields.enabled', value: true }),
      { ...moneyElement('payout', 'resources:fields.payout', true), labelDescription: 'resources:offers.payoutHint' },
      {
        name: 'currency',
        type: 'select',
        label: 'resources:fields.currency',
        options: currencyOptions,
        value: 'USD',
        required: true,
      },
      {
        name: 'daily_cap',
        type: 'number',
        label: 'resources:offers.fields.daily_cap',
        labelDescription: 'resources:offers.dailyCapHint',
        value: 0,
        numberMin: 0,
        numberStep: 1,
        validate: { min_value: 0 },
      },
      {
        name: 'cap_timezone',
        type: 'select',
        label: 'resources:offers.fields.cap_timezone',
        labelDescription: 'resources:offers.capTimezoneHint',
        options: timezoneOptions,
        value: 'UTC',
      },
      {
        name: 'backup_offer_external_id',
        type: isApi ? 'select-offer' : 'select-tracker-offer',
        label: 'resources:offers.fields.backup_offer',
        labelDescription: 'resources:offers.backupHint',
        placeholder: 'resources:offers.backupPlaceholder',
        // The control loads the offers itself (with their enabled flags).
        allowEmpty: true,
      },
      {
        name: 'countries',
        type: 'select',
        multiple: true,
        label: 'resources:fields.countries',
        placeholder: 'resources:offers.countriesPlaceholder',
        options: countryOptions,
      },
      ...apiOnly(
        {
          name: 'vars',
          type: 'offer-vars-repeater',
          label: 'resources:offers.fields.vars',
          labelDescription: 'resources:offers.varsHint',
          value: {},
        },
        {
          name: 'email_weights',
          type: 'email-weights-repeater',
          label: 'resources:offers.fields.email_weights',
          labelDescription: 'resources:offers.emailWeightsHint',
          value: {},
        },
      ),
      { name: 'description', type: 'text-html-editor', label: 'resources:offers.fields.description', value: '' },
    ];
  }, [isApi, networkOptions, currencyOptions, countryOptions, timezoneOptions]);
}
