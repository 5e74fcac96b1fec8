import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

/** Waits this long before showing the bar, so instant route changes do not flicker. */
const SHOW_DELAY_MS = 120;

/** §2.2: route changes show a 2 px page-load progress bar along the top of the window. */
export function RouteProgressBar() {
  const navigation = useNavigation();
  const loading = navigation.state !== 'idle';
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!loading) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), SHOW_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);

  return (
    <div
      className="sy-progress"
      data-visible={visible || undefined}
      role="progressbar"
      aria-hidden={!visible}
      aria-busy={visible}
    >
      <div className="sy-progress-bar" />
    </div>
  );
}
