import { act, fireEvent, render, screen } from '@testing-library/react';
import { PASSWORD_HINT, PASSWORD_RULE, PASSWORDS_DIFFER } from '../../lib/password';
import { mockFetch, sentJson } from '../../lib/test-utils';
import { ChangePassword } from './views';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

afterEach(() => vi.unstubAllGlobals());

describe('change password', () => {
  it('holds the new password to the shop’s one rule, as registration and reset do', async () => {
    const fetch = mockFetch({ '/api/user/change-password': { body: { success: true, message: 'Password changed' } } });
    render(<ChangePassword />);
    expect(screen.getByText(PASSWORD_HINT)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'old-password' } });
    // Six characters were enough here once; the origin refuses them.
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abc123' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'abc124' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText(PASSWORD_RULE)).toBeTruthy();
    expect(screen.getByText(PASSWORDS_DIFFER)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'abcdefgh' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'abcdefgh' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ old_password: 'old-password', password: 'abcdefgh', password_confirmation: 'abcdefgh' });
    expect(screen.queryByText(PASSWORD_RULE)).toBeNull();
  });
});
