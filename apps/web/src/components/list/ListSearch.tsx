import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';
import { SearchBox } from './SearchBox';

/** The search box: typing updates `?search=` after a short pause and goes back to page 1. */
export function ListSearch() {
  const { t } = useTranslation();
  const { params } = useResourceListContext();
  return (
    <SearchBox
      search={params.search}
      onSearch={params.setSearch}
      label={t('resources:list.search')}
      placeholder={t('resources:list.searchPlaceholder')}
      clearLabel={t('resources:list.clearSearch')}
    />
  );
}
