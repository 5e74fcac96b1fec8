import { ActionIcon, Loader, Table, Text } from '@mantine/core';
import type { ReportFigures, ReportGroup, ReportRow } from '@switchyard/domain';
import { IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportFormat } from '../shared/reporting/useReportFormat';
import { DrillName, FigureCells } from './ReportCells';
import { useReportContext } from './ReportContext';
import { ReportScroll } from './ReportScroll';
import { ReportSortHeader } from './ReportSortHeader';
import { FigureHeaders } from './ReportTable';
import { TREE_CHILD_LIMIT, treeKey, treeLevelRequest } from './reportTree';
import { useReport } from './useReport';

/**
 * Several groups as a tree, as Keitaro and Binom show them: the first group's rows, each opening onto its
 * rows by the next group with its own figures as their subtotal. Every level is the server's own report
 * narrowed to its parents' values, so a subtotal's ROI and CR are the level's, not a sum of ratios.
 */
export function ReportTree({
  rows,
  totals,
  labels,
}: {
  rows: ReportRow[];
  totals: ReportFigures;
  /** The traffic source's names of the vars (the report's `meta.labels`). */
  labels?: Readonly<Record<string, string>> | undefined;
}) {
  const { t } = useTranslation('reports');
  const format = useReportFormat();
  const { params, isFetching } = useReportContext();
  const groupName = format.groupNames(labels);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const caption = t('table.caption', { groups: params.groups.map(groupName).join(' › ') });

  return (
    <ReportScroll label={caption}>
      <Table verticalSpacing="xs" highlightOnHover aria-busy={isFetching} className="sy-report-table">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <ReportSortHeader field={params.groups[0] as ReportGroup} sticky>
              {params.groups.map(groupName).join(' › ')}
            </ReportSortHeader>
            <FigureHeaders />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <TreeRow key={treeKey(params.groups, [row])} path={[row]} open={open} toggle={toggle} />
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th scope="row" className="sy-report-sticky">
              {t('table.total')}
            </Table.Th>
            <FigureCells figures={totals} name={t('table.total')} />
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ReportScroll>
  );
}

interface TreeRowProps {
  /** The row and the rows it opens from, the top level first. */
  path: ReportRow[];
  open: ReadonlySet<string>;
  toggle: (key: string) => void;
}

function TreeRow({ path, open, toggle }: TreeRowProps) {
  const { t } = useTranslation('reportLayout');
  const format = useReportFormat();
  const { params } = useReportContext();
  const depth = path.length - 1;
  const row = path[depth] as ReportRow;
  const group = params.groups[depth] as ReportGroup;
  const key = treeKey(params.groups, path);
  const shown = format.groupValue(group, row[group], row[`${group}_name`]);
  const leaf = depth === params.groups.length - 1;
  // The row with its parents' values: what its events and its drill-down are narrowed by.
  const values = Object.assign({}, ...path) as ReportRow;
  const groups = params.groups.slice(0, depth + 1);
  const expanded = !leaf && open.has(key);
  return (
    <>
      <Table.Tr data-depth={depth} className={depth > 0 ? 'sy-report-child' : undefined}>
        <Table.Td className="sy-report-sticky">
          <div className="sy-report-tree-name" style={{ paddingInlineStart: `calc(${depth} * 1.25rem)` }}>
            {leaf ? (
              <span className="sy-report-tree-spacer" />
            ) : (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-expanded={expanded}
                aria-label={t(expanded ? 'tree.close' : 'tree.open', {
                  name: shown,
                  level: format.groupName(params.groups[depth + 1] as ReportGroup),
                })}
                onClick={() => toggle(key)}
              >
                <IconChevronRight size={14} aria-hidden className={expanded ? 'sy-report-tree-open' : 'sy-flip-rtl'} />
              </ActionIcon>
            )}
            <DrillName row={values} shown={shown} groups={groups} />
          </div>
        </Table.Td>
        <FigureCells figures={row} row={values} name={shown} groups={groups} />
      </Table.Tr>
      {expanded && <TreeChildren path={path} open={open} toggle={toggle} />}
    </>
  );
}

/** The rows one level down from `path`'s last row, fetched when it is opened. */
function TreeChildren({ path, open, toggle }: TreeRowProps) {
  const { t } = useTranslation('reportLayout');
  const { request, params, metrics, customMetrics } = useReportContext();
  const report = useReport(treeLevelRequest(request, path.length, path));
  const span = 2 + metrics.length + customMetrics.length;
  if (report.isLoading) {
    return (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <Loader size="xs" aria-label={t('tree.loading')} />
        </Table.Td>
      </Table.Tr>
    );
  }
  if (!report.data) {
    return (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <Text size="sm" c="red.8">
            {t('tree.error')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  const { list, total } = report.data;
  return (
    <>
      {list.map((child) => (
        <TreeRow key={treeKey(params.groups, [...path, child])} path={[...path, child]} open={open} toggle={toggle} />
      ))}
      {total > list.length && (
        <Table.Tr>
          <Table.Td colSpan={span}>
            <Text size="sm" c="dimmed" ps={`calc(${path.length} * 1.25rem + 1.75rem)`}>
              {t('tree.more', { shown: TREE_CHILD_LIMIT, total })}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
