import { Component, type ReactNode } from 'react';
import i18n from '../../i18n';

interface State {
  failed: boolean;
}

/** §2.2: if showing the error page fails too, say so with as little machinery as possible. */
export class ErrorPageBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" style={{ padding: '48px 16px', textAlign: 'center' }}>
        <p>{i18n.t('errors.errorPageFailed')}</p>
        <a href="/">{i18n.t('errors.backToHome')}</a>
      </div>
    );
  }
}
