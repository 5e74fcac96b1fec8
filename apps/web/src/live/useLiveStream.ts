import { useCallback, useEffect, useRef, useState } from 'react';
import { useChosenWorkspace } from '../shared/workspace/useChosenWorkspace';
import { type LiveConnectionState, runLiveConnection } from './liveConnection';
import type { LiveEvent } from './liveEvent';

/** Events kept in memory, newest first; older ones fall off the end. Held while paused: as many. */
export const LIVE_KEEP = 200;

export interface LiveSampling {
  sampled: boolean;
  rate: number;
}

export interface LiveStream {
  /** Newest first, at most LIVE_KEEP. */
  events: LiveEvent[];
  connection: LiveConnectionState;
  paused: boolean;
  /** Events that arrived while paused: all counted, the newest LIVE_KEEP kept to show on resume. */
  held: number;
  /** What the latest message said of sampling; null before the first. */
  sampling: LiveSampling | null;
  pause: () => void;
  resume: () => void;
}

const prepend = (newer: LiveEvent[], older: LiveEvent[]) => [...newer, ...older].slice(0, LIVE_KEEP);

/**
 * The workspace's live events, of one campaign when `campaign` is set: the stream is opened on
 * mount, opened afresh when the campaign or the workspace changes, and closed on unmount.
 */
export function useLiveStream(campaign: string | null = null): LiveStream {
  const workspace = useChosenWorkspace();
  const [events, setEvents] = useState<LiveEvent[]>([]);
  const [connection, setConnection] = useState<LiveConnectionState>({ status: 'connecting' });
  const [paused, setPaused] = useState(false);
  const [held, setHeld] = useState(0);
  const heldEvents = useRef<LiveEvent[]>([]);
  const [sampling, setSampling] = useState<LiveSampling | null>(null);
  // Read by the stream's callback, which lives as long as the connection, not one render.
  const pausedRef = useRef(false);

  useEffect(() => {
    // Another campaign or workspace: what was shown belongs to the one before.
    setEvents([]);
    setHeld(0);
    heldEvents.current = [];
    setSampling(null);
    const controller = new AbortController();
    void runLiveConnection({
      campaign,
      workspace,
      signal: controller.signal,
      onState: setConnection,
      onEvent: (event) => {
        setSampling((before) =>
          before?.sampled === event.sampled && before.rate === event.rate
            ? before
            : { sampled: event.sampled, rate: event.rate },
        );
        if (pausedRef.current) {
          heldEvents.current = prepend([event], heldEvents.current);
          setHeld((count) => count + 1);
        } else {
          setEvents((before) => prepend([event], before));
        }
      },
    });
    return () => controller.abort();
  }, [campaign, workspace]);

  const pause = useCallback(() => {
    pausedRef.current = true;
    setPaused(true);
  }, []);

  const resume = useCallback(() => {
    pausedRef.current = false;
    setPaused(false);
    const waiting = heldEvents.current;
    heldEvents.current = [];
    setHeld(0);
    if (waiting.length > 0) setEvents((shown) => prepend(waiting, shown));
  }, []);

  return { events, connection, paused, held, sampling, pause, resume };
}
