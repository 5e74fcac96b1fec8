import { REDIRECT_MODES } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormElement } from '../../components/form/types';

/**
 * A tracker campaign's delivery: how its visitors are sent on (each redirect mode explained in one
 * line), the fallback of the remote mode, and tracking without a redirect (direct campaigns: the
 * origins their script may record clicks from, and, once saved, the snippets to copy).
 */
export function useDeliveryElements(editing: boolean): FormElement[] {
  const { t, i18n } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts follow the language.
  return useMemo(
    () => [
      {
        name: 'redirect_mode',
        type: 'radio-with-info',
        label: 'delivery:fields.redirect_mode',
        value: '302',
        options: REDIRECT_MODES.map((mode) => ({
          value: mode,
          label: t(`delivery:modes.${mode}.label`),
          description: t(`delivery:modes.${mode}.help`),
        })),
      },
      {
        name: 'fallback_url',
        type: 'macro-url',
        label: 'delivery:fields.fallback_url',
        labelDescription: 'delivery:fields.fallback_help',
        value: '',
        input: { dir: 'ltr' },
      },
      {
        name: 'type',
        type: 'radio-with-info',
        label: 'delivery:fields.type',
        value: 'redirect',
        options: [
          { value: 'redirect', label: t('delivery:fields.type_redirect') },
          { value: 'direct', label: t('delivery:fields.type_direct') },
        ],
      },
      {
        name: 'allowed_origins',
        type: 'address-list',
        label: 'delivery:fields.allowed_origins',
        labelDescription: 'delivery:fields.allowed_origins_help',
        value: [],
        input: { dir: 'ltr', placeholder: 'https://lander.example.com' },
      },
      ...(editing
        ? [{ name: 'direct_tracking', type: 'direct-tracking', label: 'delivery:direct.title' } satisfies FormElement]
        : []),
    ],
    [t, i18n.language, editing],
  );
}
