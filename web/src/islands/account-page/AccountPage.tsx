// The account area (/user/<view>): a menu of the views, the view the path
// names (profile by default), and Sign out. A visitor without a session is
// asked to sign in and brought back. Sign-up lands here with `?welcome`,
// which says the account is ready.
import { Wishlist } from '../../components/Wishlist';
import forms from '../../components/forms.module.css';
import { authToken, signOut } from '../../lib/api';
import { loginUrl } from '../../lib/navigate';
import styles from './AccountPage.module.css';
import type { View } from './types';
import { AddressBook, ChangePassword, Orders, Profile, Reviews } from './views';

export const VIEWS: [View, string][] = [
  ['profile', 'My Profile'],
  ['orders', 'My orders'],
  ['wishlist', 'My wishlist'],
  ['reviews', 'My reviews'],
  ['address', 'Address book'],
  ['change-password', 'Change password'],
];

/** The view a path names (`/user`, `/user/orders`...); unknown ones show the profile. */
export function viewOf(path: string): View {
  const name = path.replace(/^\/user\/?/, '').replace(/\/$/, '');
  return VIEWS.find(([v]) => v === name)?.[0] ?? 'profile';
}

/** Where sign-up leads: the profile, with a welcome. */
export const WELCOME_URL = '/user/profile?welcome';

export function AccountPage({ path = location.pathname, search = location.search }: { path?: string; search?: string }) {
  if (!authToken())
    return (
      <p>
        Please <a href={loginUrl()}>sign in</a> to see your account. New here? <a href="/user/registration">Create an account</a>.
      </p>
    );
  const view = viewOf(path);
  return (
    <div className={styles.page}>
      <nav aria-label="My account" className={styles.menu}>
        <ul>
          {VIEWS.map(([v, label]) => (
            <li key={v}>
              <a href={`/user/${v}`} aria-current={v === view ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
          <li>
            <button type="button" className={styles.textbtn} onClick={() => void signOut()}>
              Sign out
            </button>
          </li>
        </ul>
      </nav>
      <div>
        {new URLSearchParams(search).has('welcome') && (
          <p className={forms.ok} role="status">
            Welcome! Your account is ready and you are signed in.
          </p>
        )}
        {view === 'profile' && <Profile />}
        {view === 'orders' && <Orders />}
        {view === 'wishlist' && <Wishlist />}
        {view === 'reviews' && <Reviews />}
        {view === 'address' && <AddressBook />}
        {view === 'change-password' && <ChangePassword />}
      </div>
    </div>
  );
}
