import { PROGRESS_BAR_DURATION_MS, PROGRESS_BAR_HEIGHT_PX, PROGRESS_BAR_THROTTLE_MS } from '@switchyard/domain';
import { type CSSProperties, useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

const BAR_STYLE = {
  '--sy-progress-height': `${PROGRESS_BAR_HEIGHT_PX}px`,
  '--sy-progress-duration': `${PROGRESS_BAR_DURATION_MS}ms`,
} as CSSProperties;

/**
 * §2.2, §9: route changes show a 2 px page-load progress bar along the top of the window, shown only when a
 * change takes longer than the 200 ms throttle; it creeps towards the end over 5000 ms.
 */
export function RouteProgressBar() {
  const navigation = useNavigation();
  const loading = navigation.state !== 'idle';
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!loading) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), PROGRESS_BAR_THROTTLE_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);

  return (
    <div
      className="sy-progress"
      style={BAR_STYLE}
      data-visible={visible || undefined}
      role="progressbar"
      aria-hidden={!visible}
      aria-busy={visible}
    >
      <div className="sy-progress-bar" />
    </div>
  );
}
