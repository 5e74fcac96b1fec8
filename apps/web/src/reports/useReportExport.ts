import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showNotice } from '../components/feedback/showNotice';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { reportCsv } from './csv';
import { useReportContext } from './ReportContext';
import { fetchReport } from './useReport';

/** Starts the browser's download of `text` as a file. */
function download(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by the time the click returns; the URL only holds memory now.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "Export CSV": every row of the current report (not only this page), as the table sorts them. */
export function useReportExport() {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  // Every figure the user may see, whichever columns the screen shows: a file is read elsewhere.
  const { request, range, allMetrics, allCustomMetrics } = useReportContext();
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { list, meta } = await fetchReport({ ...request, page: 1, limit: 0 });
      const groupName = format.groupNames(meta?.labels);
      const csv = reportCsv(request.groups, list, {
        group: groupName,
        groupValue: (group) => t('csv.valueOf', { name: groupName(group) }),
        metric: format.metricName,
        none: t('none'),
        label: format.groupValue,
        metrics: allMetrics,
        custom: allCustomMetrics,
      });
      // The byte order mark makes spreadsheet programs read the file as UTF-8 (names in any script).
      // Figures counted by postback time say so in the file's name.
      const attribution = request.attribution === 'postback' ? '-by-postback-time' : '';
      download(
        `report-${request.groups.join('-')}-${range.from}_${range.to}${attribution}.csv`,
        `\uFEFF${csv}`,
        'text/csv',
      );
    } catch (error) {
      showNotice({ kind: 'danger', message: t('toolbar.exportFailed') });
      console.error('Unable to export the report', error);
    } finally {
      setExporting(false);
    }
  };

  return { exportCsv, exporting };
}
