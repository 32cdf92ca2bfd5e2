// Pieces an approval shows the same way whether it asks about a call or a write's hunks.

interface AlwaysButtonProps {
  /** The rules the answer adds for the rest of the session, as shown. */
  scope: string;
  title: string;
  disabled: boolean;
  onClick: () => void;
}

/** "Always for this session: <scope>": the answer that also allows matching calls until the session ends. */
export function AlwaysButton({ scope, title, disabled, onClick }: AlwaysButtonProps) {
  return (
    <button
      type="button"
      className="button"
      data-testid="approve-session"
      title={title}
      disabled={disabled}
      onClick={onClick}
    >
      Always for this session:{' '}
      <span className="approval-scope" data-testid="approval-scope">
        {scope}
      </span>
    </button>
  );
}

/** While the panel is disconnected an answer cannot reach the agent. */
export function OfflineNote() {
  return (
    <span className="approval-offline" data-testid="approval-offline">
      Reconnecting — answer once the connection is back.
    </span>
  );
}
