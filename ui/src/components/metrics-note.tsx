// Why usage figures show "—" when the metrics API refused or failed (e.g. a user whose role does
// not read node metrics): a quiet line, not an alert, as the page's own work goes on without them.
export function MetricsNote({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <p class="muted small metrics-note">Usage figures unavailable: {message}</p>;
}
