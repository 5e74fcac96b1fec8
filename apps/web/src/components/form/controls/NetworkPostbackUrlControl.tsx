import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';
import { networkPostbackUrl } from './networkPostbackUrl';

/**
 * `network-postback-url`: the postback address for an affiliate network as copy-text, made from the
 * macro names typed in the same form (`postback_params.*`), so it follows them before the save. Nothing
 * is stored: the value is not part of the form's body.
 */
export function NetworkPostbackUrlControl(props: FormControlProps) {
  const { values } = useResourceFormContext();
  const url = networkPostbackUrl(window.location.origin, {
    click_id: values['postback_params.click_id'],
    payout: values['postback_params.payout'],
    status: values['postback_params.status'],
    txid: values['postback_params.txid'],
  });
  return <CopyTextControl {...props} value={url} />;
}
