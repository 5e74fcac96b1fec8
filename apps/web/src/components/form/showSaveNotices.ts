import type { TFunction } from 'i18next';
import { notify } from '../../shared/notify';

/** What the server changed in a saved record and says so on the save answer (`notices`). */
export interface SaveNotice {
  code: string;
  field: string;
  images?: string[];
}

/** The `notices` of a save answer; anything else (an older server, a resource without any) is none. */
export function saveNoticesOf(answer: unknown): SaveNotice[] {
  const notices = (answer as { notices?: unknown } | null)?.notices;
  return Array.isArray(notices) ? (notices as SaveNotice[]) : [];
}

/**
 * Tells the person who saved what the server removed. Kept until clicked: the removed images are gone
 * from the record, and this is the only place that lists them.
 */
export function showSaveNotices(answer: unknown, t: TFunction): void {
  for (const notice of saveNoticesOf(answer)) {
    if (notice.code !== 'remote_images_removed') continue;
    notify({
      type: 'warning',
      timeout: 0,
      title: t('resources:form.remoteImagesRemovedTitle'),
      message: t('resources:form.remoteImagesRemoved', { images: (notice.images ?? []).join(', ') }),
    });
  }
}
