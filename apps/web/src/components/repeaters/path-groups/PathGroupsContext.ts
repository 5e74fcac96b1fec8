import { createContext, useContext } from 'react';
import type { OfferLookupOption } from '../../../api/useOfferLookup';
import type { FlowType, OfferEnabled } from './pathGroupRows';

/** What every group and path of one flow editor shares. */
export interface PathGroupsSettings {
  flowType: FlowType;
  /** The offers of the flow's kind (API offers carry `enabled`). */
  offers: readonly OfferLookupOption[];
  offerEnabled: OfferEnabled;
  disabled: boolean;
  /** Rows made in this editor (added or duplicated) start expanded (§4). */
  isNew: (id: string) => boolean;
  markNew: (id: string) => void;
  /**
   * Whether a group's or path's fields are open: as toggled, else as it started (`startsOpen`, asked once
   * per row, so a row does not close by itself when its key fields fill in).
   */
  isOpen: (id: string, startsOpen: () => boolean) => boolean;
  setOpen: (id: string, open: boolean) => void;
  /** Prefix of the ids that tie a row's Details button to its fields. */
  idPrefix: string;
}

export const PathGroupsContext = createContext<PathGroupsSettings | null>(null);

export function usePathGroupsContext(): PathGroupsSettings {
  const settings = useContext(PathGroupsContext);
  if (!settings) throw new Error('usePathGroupsContext must be used inside a path-groups repeater');
  return settings;
}
