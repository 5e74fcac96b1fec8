import { Box, Group, Input, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { trackerLanders, trafficShares } from '@switchyard/domain';
import { type ComponentType, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookup } from '../../../api/useLookup';
import { SelectOfferControl } from '../../form/controls/SelectOfferControl';
import { SelectTrackerLanderControl } from '../../form/controls/SelectTrackerLanderControl';
import type { FormControlProps } from '../../form/types';
import { Repeater } from '../Repeater';
import { usePathGroupsContext } from './PathGroupsContext';
import {
  createLanderRow,
  createOfferRow,
  newRowId,
  type PathLanderRow,
  type PathOfferRow,
  routeRowExpanded,
} from './pathGroupRows';
import { TrafficShare } from './TrafficShare';

type RouteRow = { id: string; weight: number; enabled: boolean };

interface RouteRowsProps<Row extends RouteRow> {
  rows: Row[];
  onChange: (rows: Row[]) => void;
  /** The path's messages; this list reads those under `<field>.<index>.`. */
  fieldErrors?: Record<string, string>;
}

interface RouteRowsSetup<Row extends RouteRow> {
  /** `offers` or `landers`, as the path stores them. */
  field: 'offers' | 'landers';
  idField: keyof Row & string;
  select: ComponentType<FormControlProps>;
  selectType: string;
  create: () => Row;
  /** The names to show for the chosen ids (the same lookup as the select's; react-query shares it). */
  useNames: () => ReadonlyMap<string, string>;
  texts: { list: string; add: string; empty: string; choice: string; choose: string };
}

/**
 * The weighted offer or lander rows of a tracker path (§3.4): the chosen name in full, the choice, then weight,
 * share of the path's traffic and switch once chosen.
 */
function RouteRows<Row extends RouteRow>({
  rows,
  onChange,
  fieldErrors,
  setup,
}: RouteRowsProps<Row> & { setup: RouteRowsSetup<Row> }) {
  const { t } = useTranslation();
  const { disabled } = usePathGroupsContext();
  const Select = setup.select;
  const names = setup.useNames();
  const at = (index: number, name: string) => fieldErrors?.[`${setup.field}.${index}.${name}`];

  const chosenOf = (row: Row) => row[setup.idField] as unknown as string;
  // A row still choosing its offer or lander takes no traffic yet; a disabled one never does.
  const shares = trafficShares(
    rows.map((row) => ({ enabled: row.enabled && routeRowExpanded(chosenOf(row)), weight: row.weight })),
  );

  return (
    <Input.Wrapper labelElement="div" label={t(setup.texts.list)} error={fieldErrors?.[setup.field]}>
      <div style={{ marginBlockStart: 'var(--mantine-spacing-xs)' }}>
        <Repeater<Row>
          rows={rows}
          onChange={onChange}
          createRow={setup.create}
          duplicateRow={(row) => ({ ...row, id: newRowId() })}
          label={t(setup.texts.list)}
          addLabel={t(setup.texts.add)}
          emptyText={t(setup.texts.empty)}
          disabled={disabled}
          rowTestId={`path-${setup.field}-row`}
          // The first line names the choice in full, wrapping; the select takes the row's whole width below.
          renderRow={(row) => {
            const chosen = chosenOf(row);
            const name = chosen ? (names.get(chosen) ?? chosen) : t(setup.texts.choose);
            return (
              <Text size="sm" fw={chosen ? 500 : undefined} c={chosen ? undefined : 'dimmed'} mt={4} style={WRAP}>
                {name}
              </Text>
            );
          }}
          renderBody={(row, index, update) => (
            <Stack gap="xs">
              <Select
                element={{ name: setup.idField, type: setup.selectType, input: { size: 'xs' } }}
                value={chosenOf(row) || null}
                onChange={(next) => update({ ...row, [setup.idField]: typeof next === 'string' ? next : '' })}
                label={t(setup.texts.choice)}
                placeholder={t(setup.texts.choose)}
                error={at(index, setup.idField)}
                required
                disabled={disabled}
              />
              {routeRowExpanded(chosenOf(row)) && (
                <Group gap="xs" align="flex-end" wrap="wrap">
                  <NumberInput
                    size="xs"
                    label={t('controls:pathGroups.weight')}
                    value={row.weight}
                    onChange={(weight) => update({ ...row, weight: typeof weight === 'number' ? weight : 0 })}
                    error={at(index, 'weight')}
                    min={0}
                    allowDecimal={false}
                    disabled={disabled}
                    style={{ flex: '0 1 8rem', minInlineSize: '5rem' }}
                  />
                  <Box mb={6}>
                    <TrafficShare share={shares[index] ?? null} hint={t('controls:pathGroups.rowShareHint')} />
                  </Box>
                  <Switch
                    size="sm"
                    mb={6}
                    label={t('controls:pathGroups.rowEnabled')}
                    checked={row.enabled}
                    onChange={(event) => update({ ...row, enabled: event.currentTarget.checked })}
                    disabled={disabled}
                  />
                </Group>
              )}
            </Stack>
          )}
        />
      </div>
    </Input.Wrapper>
  );
}

/** Long names break anywhere rather than push the row's buttons off screen. */
const WRAP = { overflowWrap: 'anywhere' } as const;

function useOfferNames(): ReadonlyMap<string, string> {
  const { offers } = usePathGroupsContext();
  return useMemo(() => new Map(offers.map((offer) => [String(offer.value), offer.label])), [offers]);
}

function useLanderNames(): ReadonlyMap<string, string> {
  const landers = useLookup(trackerLanders);
  return useMemo(() => new Map(landers.map((lander) => [String(lander.value), lander.label])), [landers]);
}

const OFFER_ROWS: RouteRowsSetup<PathOfferRow> = {
  field: 'offers',
  idField: 'offer_external_id',
  select: SelectOfferControl,
  selectType: 'select-tracker-offer',
  create: createOfferRow,
  useNames: useOfferNames,
  texts: {
    list: 'controls:pathGroups.offers',
    add: 'controls:pathGroups.addOffer',
    empty: 'controls:pathGroups.emptyOffers',
    choice: 'controls:pathGroups.offer',
    choose: 'controls:pathGroups.chooseOffer',
  },
};

const LANDER_ROWS: RouteRowsSetup<PathLanderRow> = {
  field: 'landers',
  idField: 'lander_external_id',
  select: SelectTrackerLanderControl,
  selectType: 'select-tracker-lander',
  create: createLanderRow,
  useNames: useLanderNames,
  texts: {
    list: 'controls:pathGroups.landers',
    add: 'controls:pathGroups.addLander',
    empty: 'controls:pathGroups.emptyLanders',
    choice: 'controls:pathGroups.lander',
    choose: 'controls:pathGroups.chooseLander',
  },
};

/** A tracker path's offer rows. */
export function OfferRows(props: RouteRowsProps<PathOfferRow>) {
  return <RouteRows {...props} setup={OFFER_ROWS} />;
}

/** A tracker path's lander rows. */
export function LanderRows(props: RouteRowsProps<PathLanderRow>) {
  return <RouteRows {...props} setup={LANDER_ROWS} />;
}
