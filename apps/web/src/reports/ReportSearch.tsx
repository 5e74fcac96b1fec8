import { useTranslation } from 'react-i18next';
import { SearchBox } from '../components/list/SearchBox';
import { useReportContext } from './ReportContext';

/** Searches the rows' names; typing updates `?search=` after a short pause, replacing the history entry. */
export function ReportSearch() {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  return (
    <SearchBox
      search={params.search}
      onSearch={(search) => update({ search }, { replace: true })}
      label={t('toolbar.search')}
      visibleLabel
      placeholder={t('toolbar.searchPlaceholder')}
      clearLabel={t('toolbar.clearSearch')}
      w={{ base: '100%', xs: 240 }}
    />
  );
}
