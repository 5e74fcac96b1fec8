import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type OfferKind, useOfferLookup } from '../../../api/useOfferLookup';
import type { FormControlProps } from '../types';
import { SelectControl } from './SelectControl';

/**
 * The offer select of `select-offer` (API offers) and `select-tracker-offer` (tracker offers): every
 * offer (limit 0, §9), disabled ones marked. Value: the offer's external_id (string), null when none,
 * or string[] with `multiple`. A choice reports the offer's enabled flag to `element.onEnabledChange` (§4).
 */
export function SelectOfferControl(props: FormControlProps) {
  const { element, value, onChange, description } = props;
  const { t } = useTranslation();
  const kind: OfferKind = element.type === 'select-tracker-offer' ? 'tracker-offers' : 'offers';
  const offers = useOfferLookup(kind);
  const byId = new Map(offers.map((offer) => [offer.value, offer]));
  const disabledText = t('controls:controls.offer.disabled');

  const chosen = typeof value === 'string' ? byId.get(value) : undefined;
  const chosenEnabled = element.multiple ? true : (chosen?.enabled ?? element.enabled ?? true);

  return (
    <SelectControl
      {...props}
      element={{
        ...element,
        options: offers.map((offer) => ({
          value: offer.value,
          label: offer.enabled === false ? `${offer.label} (${disabledText})` : offer.label,
        })),
        input: {
          renderOption: ({ option }: { option: { value: string; label: string } }) => {
            const offer = byId.get(option.value);
            return (
              <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
                <Text
                  size="sm"
                  c={offer?.enabled === false ? 'dimmed' : undefined}
                  style={{ minInlineSize: 0, overflowWrap: 'anywhere' }}
                >
                  {offer?.label ?? option.label}
                </Text>
                {offer?.enabled === false && (
                  <Badge size="xs" color="gray" variant="light">
                    {disabledText}
                  </Badge>
                )}
              </Group>
            );
          },
          // A long name cut off in the field reads whole on hover.
          title: chosen?.label,
          ...element.input,
        },
      }}
      description={
        chosenEnabled ? (
          description
        ) : (
          <>
            {description}
            {description ? ' ' : null}
            <Text span size="xs" c="orange">
              {t('controls:controls.offer.chosenDisabled')}
            </Text>
          </>
        )
      }
      onChange={(next) => {
        onChange(next);
        if (typeof next === 'string') element.onEnabledChange?.(byId.get(next)?.enabled ?? true);
      }}
    />
  );
}
