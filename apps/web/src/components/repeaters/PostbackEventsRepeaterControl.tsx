import { getResource } from '@switchyard/domain';
import { useLookup } from '../../api/useLookup';
import type { FormControlProps } from '../form/types';
import { PostbackEventsRepeater } from './PostbackEventsRepeater';

const postbackEvents = getResource('postback-events');

function WithLoadedEvents(props: FormControlProps) {
  return <PostbackEventsRepeater {...props} events={useLookup(postbackEvents)} />;
}

/** The form control: the element's `options` when the screen passes them, else the postback-events lookup. */
export function PostbackEventsRepeaterControl(props: FormControlProps) {
  const { options } = props.element;
  if (options) return <PostbackEventsRepeater {...props} events={options} />;
  return <WithLoadedEvents {...props} />;
}
