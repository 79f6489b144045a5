// The user's bearer token: kept in sessionStorage (gone when the tab closes; never a cookie, so
// no other site's request can carry it). A sign-in address brings it in the URL fragment
// (#token=...), which browsers never send to a server; it is moved here and wiped from the address
// bar at once, so it does not stay in the history either.
const KEY = 'drover.token';

export function takeTokenFromFragment(): void {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  setToken(decodeURIComponent(match[1]!));
  history.replaceState(null, '', `${location.pathname}${location.search}#/overview`);
}

export function token(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function setToken(value: string): void {
  sessionStorage.setItem(KEY, value.trim());
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
  location.hash = '#/sign-in';
}
