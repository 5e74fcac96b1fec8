import { Group, Input, NumberInput, Switch } from '@mantine/core';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
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
  texts: { list: string; add: string; empty: string; choice: string; choose: string };
}

/** The weighted offer or lander rows of a tracker path (§3.4): the choice, then weight and switch once chosen. */
function RouteRows<Row extends RouteRow>({
  rows,
  onChange,
  fieldErrors,
  setup,
}: RouteRowsProps<Row> & { setup: RouteRowsSetup<Row> }) {
  const { t } = useTranslation();
  const { disabled } = usePathGroupsContext();
  const Select = setup.select;
  const at = (index: number, name: string) => fieldErrors?.[`${setup.field}.${index}.${name}`];

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
          renderRow={(row, index, update) => {
            const chosen = row[setup.idField] as unknown as string;
            return (
              <Group gap="xs" align="flex-end" wrap="wrap" data-testid={`path-${setup.field}-row`}>
                <div style={{ flex: 2, minInlineSize: '10rem' }}>
                  <Select
                    element={{ name: setup.idField, type: setup.selectType, input: { size: 'xs' } }}
                    value={chosen || null}
                    onChange={(next) => update({ ...row, [setup.idField]: typeof next === 'string' ? next : '' })}
                    label={t(setup.texts.choice)}
                    placeholder={t(setup.texts.choose)}
                    error={at(index, setup.idField)}
                    required
                    disabled={disabled}
                  />
                </div>
                {routeRowExpanded(chosen) && (
                  <>
                    <NumberInput
                      size="xs"
                      label={t('controls:pathGroups.weight')}
                      value={row.weight}
                      onChange={(weight) => update({ ...row, weight: typeof weight === 'number' ? weight : 0 })}
                      error={at(index, 'weight')}
                      min={0}
                      allowDecimal={false}
                      disabled={disabled}
                      style={{ flex: 1, minInlineSize: '6rem' }}
                    />
                    <Switch
                      size="sm"
                      mb={6}
                      label={t('controls:pathGroups.rowEnabled')}
                      checked={row.enabled}
                      onChange={(event) => update({ ...row, enabled: event.currentTarget.checked })}
                      disabled={disabled}
                    />
                  </>
                )}
              </Group>
            );
          }}
        />
      </div>
    </Input.Wrapper>
  );
}

const OFFER_ROWS: RouteRowsSetup<PathOfferRow> = {
  field: 'offers',
  idField: 'offer_external_id',
  select: SelectOfferControl,
  selectType: 'select-tracker-offer',
  create: createOfferRow,
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
