import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { showNotice } from '../components/feedback/showNotice';
import { useReportParams } from './useReportParams';
import { useReportView } from './useReportViews';

/**
 * `/tracker/reports?view=12`, a saved view's link, puts the view's state in the URL in place of
 * `?view=` (replacing the history entry, so going back does not open it again). A view that is gone, or
 * of another workspace, is said so and the default report shown. True while the view loads.
 */
export function useSharedReportView(): boolean {
  const { t } = useTranslation('reports');
  const [searchParams, setSearchParams] = useSearchParams();
  const { load } = useReportParams();
  const id = searchParams.get('view');
  const view = useReportView(id);

  useEffect(() => {
    if (id === null) return;
    if (view.data) load(view.data.params, { replace: true });
    else if (view.error) {
      showNotice({ kind: 'danger', message: t('views.notFound') });
      setSearchParams(new URLSearchParams(), { replace: true });
    }
  }, [id, view.data, view.error, load, setSearchParams, t]);

  return id !== null;
}
