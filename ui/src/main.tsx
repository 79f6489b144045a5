// The dashboard's entry: takes a sign-in token from the address, then shows the page the hash names.
import { render } from 'preact';
import { takeTokenFromFragment, token, signOut } from './api/session';
import { href, useRoute } from './router';
import { SignIn } from './pages/sign-in';
import { Overview } from './pages/overview';
import { Workloads } from './pages/workloads';
import { PodsPage } from './pages/pods';
import { PodPage } from './pages/pod';
import { Transactions } from './pages/transactions';
import { ConfigMaps } from './pages/configmaps';
import './styles.css';

const PAGES: Array<[string, string]> = [
  ['overview', 'Overview'],
  ['workloads', 'Workloads'],
  ['pods', 'Pods'],
  ['transactions', 'Transactions'],
  ['configmaps', 'ConfigMaps'],
];

function App() {
  const [page = 'overview', ...rest] = useRoute();
  if (!token() || page === 'sign-in') return <SignIn />;
  return (
    <div class="shell">
      <nav class="nav">
        <span class="brand">Drover</span>
        {PAGES.map(([id, title]) => (
          <a key={id} href={href(id)} class={page === id || (id === 'pods' && page === 'pod') ? 'active' : ''}>
            {title}
          </a>
        ))}
        <button type="button" class="link sign-out" onClick={signOut}>
          Sign out
        </button>
      </nav>
      <main class="content">{pageFor(page, rest)}</main>
    </div>
  );
}

function pageFor(page: string, rest: string[]) {
  switch (page) {
    case 'workloads':
      return <Workloads />;
    case 'pods':
      return <PodsPage />;
    case 'pod':
      return <PodPage key={rest.join('/')} namespace={rest[0] ?? ''} name={rest[1] ?? ''} />;
    case 'transactions':
      return <Transactions target={rest[0]} />;
    case 'configmaps':
      return <ConfigMaps />;
    default:
      return <Overview />;
  }
}

takeTokenFromFragment();
render(<App />, document.getElementById('app')!);
