import { act, fireEvent, render, screen } from '@testing-library/react';
import { mockFetch, sentJson } from '../../lib/test-utils';
import { ForgotPasswordPage } from './ForgotPasswordPage';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
afterEach(() => vi.unstubAllGlobals());

describe('forgot-password-page', () => {
  it('sends the link and says so', async () => {
    const fetch = mockFetch({ '/api/user/forgot-password-send-link': { body: { message: 'We have emailed your password reset link!' } } });
    render(<ForgotPasswordPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'rina@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ email: 'rina@example.com' });
    expect(screen.getByRole('status').textContent).toBe('We have emailed your password reset link!');
  });

  it('shows an unknown email beside the field', async () => {
    mockFetch({
      '/api/user/forgot-password-send-link': {
        status: 422,
        body: { message: 'Invalid', errors: { email: ["We can't find a user with that email address."] } },
      },
    });
    render(<ForgotPasswordPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nobody@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    await flush();
    expect(screen.getByText("We can't find a user with that email address.")).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows how long to wait when too many links were asked for', async () => {
    mockFetch({
      '/api/user/forgot-password-send-link': {
        status: 429,
        headers: { 'Retry-After': '3000' },
        body: { success: false, message: 'Too many reset links asked for. Please try again in 50 minutes.' },
      },
    });
    render(<ForgotPasswordPage />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'rina@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    await flush();
    expect(screen.getByText('Too many reset links asked for. Please try again in 50 minutes.')).toBeTruthy();
  });
});
