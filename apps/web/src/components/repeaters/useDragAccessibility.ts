import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from '@dnd-kit/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** dnd-kit's screen-reader texts in the interface language, naming rows by their 1-based position. */
export function useDragAccessibility(keys: readonly string[]): {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
} {
  const { t } = useTranslation();
  return useMemo(() => {
    const position = (id: UniqueIdentifier | undefined) => keys.indexOf(String(id)) + 1;
    return {
      screenReaderInstructions: { draggable: t('controls:repeaters.drag.instructions') },
      announcements: {
        onDragStart: ({ active }) => t('controls:repeaters.drag.pickedUp', { position: position(active.id) }),
        onDragOver: ({ active, over }) =>
          over ? t('controls:repeaters.drag.over', { from: position(active.id), to: position(over.id) }) : undefined,
        onDragEnd: ({ active, over }) =>
          over
            ? t('controls:repeaters.drag.dropped', { from: position(active.id), to: position(over.id) })
            : t('controls:repeaters.drag.cancelled', { position: position(active.id) }),
        onDragCancel: ({ active }) => t('controls:repeaters.drag.cancelled', { position: position(active.id) }),
      },
    };
  }, [keys, t]);
}
