import { act, fireEvent, render, screen } from '@testing-library/react';
import { mockFetch, sentJson } from '../../lib/test-utils';
import { PASSWORD_HINT, PASSWORD_RULE } from '../../lib/password';
import { ResetPasswordPage } from './ResetPasswordPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
afterEach(() => vi.unstubAllGlobals());

describe('reset-password-page', () => {
  it('asks for the shop’s one password rule twice, then resets with the link token', async () => {
    const fetch = mockFetch({ '/api/user/reset-password': { body: { message: 'Your password has been reset!' } } });
    render(<ResetPasswordPage search="?token=tok123&email=rina%40example.com" />);
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('rina@example.com');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(screen.getByText(PASSWORD_RULE)).toBeTruthy();
    expect(screen.getByText(PASSWORD_HINT)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'longenough' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'longenough' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({
      token: 'tok123',
      email: 'rina@example.com',
      password: 'longenough',
      password_confirmation: 'longenough',
    });
    expect(screen.getByRole('status').textContent).toContain('Your password has been reset!');
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });

  it('explains an incomplete link', () => {
    render(<ResetPasswordPage search="" />);
    expect(screen.getByRole('alert').textContent).toMatch(/not complete/);
  });
});
