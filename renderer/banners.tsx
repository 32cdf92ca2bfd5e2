import { usePanel } from './store/store.ts';

// The lines above the transcript: a lost connection, and the last request that failed.

export function ConnectionBanner() {
  const connection = usePanel((state) => state.connection);
  const retryIn = usePanel((state) => state.retryIn);
  if (connection !== 'disconnected') return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="connection-banner">
      Disconnected from the panel host. {retryIn ? `Reconnecting in ${retryIn} s…` : 'Reconnecting…'}
    </div>
  );
}

export function ErrorBanner() {
  const error = usePanel((state) => state.error);
  const dismiss = usePanel((state) => state.showError);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="error-banner">
      <span className="banner-text">{error}</span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(null)}>
        ✕
      </button>
    </div>
  );
}
