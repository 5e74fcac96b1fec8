// Every conversion written, changed (a state, a payout) or removed, by id in the order it
// happened, so that the embedded columnar store copies the conversion as it is now. Triggers write it,
// so no path that touches a conversion can forget to.
import type { Generated } from 'kysely';

export interface ConversionChangeTable {
  id: Generated<number>;
  conversion_id: string;
}
