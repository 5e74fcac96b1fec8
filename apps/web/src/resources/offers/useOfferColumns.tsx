import { Text } from '@mantine/core';
import { getResource, type ResourceDefinition } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookup } from '../../api/useLookup';
import type { ListColumn } from '../../components/list/types';
import { useFormatMoney } from '../../shared/reporting/useFormatMoney';
import {
  badgesColumn,
  nameColumn,
  type Row,
  referenceColumn,
  statusColumn,
  statusWithEnabledColumn,
  timestampColumns,
} from '../screens/columns';

const affiliateNetworks = getResource('affiliate-networks');

/** Offers: name, network, payout, daily cap, countries, status (with enabled for API offers), dates. */
export function useOfferColumns(definition: ResourceDefinition): ListColumn<Row>[] {
  const { t } = useTranslation();
  const networkOptions = useLookup(affiliateNetworks);
  const formatMoney = useFormatMoney();
  const isApi = definition.name === 'offers';
  return useMemo(
    () => [
      nameColumn,
      referenceColumn('affiliate_network_external_id', 'resources:fields.affiliate_network', networkOptions),
      {
        accessor: 'payout',
        label: 'resources:fields.payout',
        render: (offer) => formatMoney(offer.payout, offer.currency),
      },
      {
        accessor: 'daily_cap',
        label: 'resources:offers.fields.daily_cap',
        render: (offer) =>
          typeof offer.daily_cap === 'number' && offer.daily_cap > 0 ? (
            offer.daily_cap
          ) : (
            <Text span c="dimmed" size="sm">
              {t('resources:offers.noCap')}
            </Text>
          ),
      },
      badgesColumn('countries', 'resources:fields.countries', 3),
      isApi ? statusWithEnabledColumn : statusColumn,
      ...timestampColumns,
    ],
    [t, isApi, networkOptions, formatMoney],
  );
}
