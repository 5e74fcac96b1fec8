import { useTranslation } from 'react-i18next';
import { SearchBox } from '../components/list/SearchBox';
import { usePostbackLogContext } from './PostbackLogContext';

/** The id search of the shown tab: typing updates `?search=` after a short pause. */
export function LogSearch({ placeholder }: { placeholder: string }) {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  return (
    <SearchBox
      search={params.search}
      onSearch={params.setSearch}
      label={t('filters.search')}
      placeholder={placeholder}
      clearLabel={t('filters.clearSearch')}
    />
  );
}
