// Signing in: paste a bearer token (a ServiceAccount's from `kubectl create token`, or the one in
// the address `drover up` prints). It is checked against the API before it is kept.
import { useState } from 'preact/hooks';
import { apiFetch, errorMessage } from '../api/client';
import { setToken, signOut } from '../api/session';
import { StatusBanner } from '../components/status-banner';

export function SignIn() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setToken(value);
    try {
      await apiFetch('/api', { headers: { Accept: 'application/json' } });
      location.hash = '#/overview';
    } catch (failure) {
      sessionStorage.clear();
      setError(errorMessage(failure));
    }
  };
  return (
    <main class="sign-in">
      <h1>Drover</h1>
      <p>
        Sign in with a bearer token. <code>drover up</code> prints an address that signs the admin in; any other user's token (e.g.{' '}
        <code>kubectl create token NAME</code>) works too, and the dashboard then does what that user may.
      </p>
      <form onSubmit={submit}>
        <label for="token">Token</label>
        <textarea
          id="token"
          name="token"
          rows={4}
          value={value}
          onInput={(e) => setValue((e.target as HTMLTextAreaElement).value)}
          autocomplete="off"
          spellcheck={false}
        />
        <button type="submit" disabled={value.trim() === ''}>
          Sign in
        </button>
      </form>
      <StatusBanner message={error} />
      {error === undefined ? null : (
        <button type="button" class="link" onClick={signOut}>
          Clear
        </button>
      )}
    </main>
  );
}
