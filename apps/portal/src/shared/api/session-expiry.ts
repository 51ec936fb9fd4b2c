/**
 * A 401 from any call but the sign-in steps means the session is over (idle, absolute expiry,
 * signed out elsewhere). The API layer announces it here; the app decides where the user goes.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionExpired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceSessionExpired(): void {
  for (const listener of listeners) listener();
}
