// SPEC §2 / §8 Rendering crash: 'Something went wrong. Please try refreshing the page.' + Reload App.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { page } from '../router/location';

export const CRASH_TEXT = 'Something went wrong. Please try refreshing the page.';

interface Props {
  children: ReactNode;
  /** Called with each caught error (the app passes it to error reporting). */
  onError?: (error: unknown, info: ErrorInfo) => void;
}

export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    this.props.onError?.(error, info);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="center-screen">
        <div className="card crash" role="alert">
          <p>{CRASH_TEXT}</p>
          <button type="button" className="btn btn-primary" onClick={() => page.reload()}>
            Reload App
          </button>
        </div>
      </main>
    );
  }
}
