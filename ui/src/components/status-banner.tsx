// An error as the API said it: the Status message, verbatim, in an alert the user can dismiss.
export function StatusBanner({ message, onDismiss }: { message: string | undefined; onDismiss?: () => void }) {
  if (!message) return null;
  return (
    <div class="status-error" role="alert">
      <span>{message}</span>
      {onDismiss && (
        <button type="button" class="link" onClick={onDismiss} aria-label="dismiss">
          ×
        </button>
      )}
    </div>
  );
}
