// A list's order: a column, or with `?stats=<period>` one of the figures it shows (api/config-records/list-stats.ts
// sorts those; the database never sees a figure's name).
import {
  LIST_STATS_FIGURES,
  LIST_STATS_GROUPS,
  type ListStatsFigure,
  type ResourceDefinition,
  type TListQuery,
} from '@switchyard/domain';
import { ValidationError } from '../errors.js';

export const isFigure = (field: string | undefined): field is ListStatsFigure =>
  (LIST_STATS_FIGURES as readonly string[]).includes(field ?? '');

/** The refusal of a figure where the list has none. */
export function noFigures(figure: string): ValidationError {
  return new ValidationError({ order_by: [`This list has no figures to sort by ${figure}.`] });
}

/**
 * The figure a list is sorted by, if any. Figures exist only where the list shows them (`?stats=` on a
 * list that has them): anywhere else sorting by one is refused, never sent on to the database.
 */
export function figureOrder(
  definition: ResourceDefinition,
  query: Pick<TListQuery, 'order_by'>,
  rawQuery: Record<string, unknown>,
): ListStatsFigure | undefined {
  if (!isFigure(query.order_by)) return undefined;
  if (!LIST_STATS_GROUPS[definition.name]) throw noFigures(query.order_by);
  if (rawQuery.stats === undefined || rawQuery.stats === '') {
    throw new ValidationError({
      order_by: [`Sorting by ${query.order_by} needs the period of the figures (?stats=).`],
    });
  }
  return query.order_by;
}
