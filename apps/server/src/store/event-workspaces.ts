// Clicks and leads carry their workspace, their campaign's (clicks: tracker campaigns, leads:
// API campaigns), else the default one; migration 0023 (migrations/0023-event-workspaces.ts) filled the
// events stored before.
import type { EventTable } from './tracker-events.js';

/** The config kind of each event table's campaigns. */
export const CAMPAIGN_KIND: Readonly<Record<EventTable, string>> = {
  tracker_clicks: 'tracker-campaigns',
  tracker_leads: 'campaigns',
};
