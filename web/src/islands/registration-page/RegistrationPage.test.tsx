import { act, fireEvent, render, screen } from '@testing-library/react';
import { authToken } from '../../lib/api';
import { navigate } from '../../lib/navigate';
import { PASSWORD_HINT, PASSWORD_RULE, PASSWORDS_DIFFER } from '../../lib/password';
import { mockFetch, sentJson } from '../../lib/test-utils';
import { RegistrationPage } from './RegistrationPage';

vi.mock('../../lib/navigate', () => ({ navigate: vi.fn() }));

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
}
const good = {
  'Full name': 'Rina Akter',
  Email: 'rina@example.com',
  'Mobile number': '+880 1712-345678',
  'Emergency contact number': '01812345678',
  Password: 'secret12',
  'Confirm password': 'secret12',
};

beforeEach(() => {
  localStorage.clear();
  vi.mocked(navigate).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('registration-page', () => {
  it('marks every field that needs correcting, with a clear message', () => {
    const fetch = mockFetch({});
    render(<RegistrationPage />);
    fill({ Email: 'rina@', 'Mobile number': '12345', Password: '123', 'Confirm password': '124' });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct the fields marked below.');
    expect(screen.getByText('Enter your name.')).toBeTruthy();
    expect(screen.getByText('Enter an email address like name@example.com.')).toBeTruthy();
    expect(screen.getByText('Enter an 11-digit mobile number starting with 01, like 01712345678.')).toBeTruthy();
    expect(screen.getByText('Enter an emergency number: another number we can call if we cannot reach you.')).toBeTruthy();
    expect(screen.getByText(PASSWORD_RULE)).toBeTruthy();
    expect(screen.getByText(PASSWORD_HINT)).toBeTruthy();
    expect(screen.getByText(PASSWORDS_DIFFER)).toBeTruthy();
    expect(screen.getByText('Please accept the terms to create an account.')).toBeTruthy();
    expect(screen.getByLabelText('Mobile number').getAttribute('aria-describedby')).toMatch(/-h .*-e$/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates the account with the original field names, signs in and goes home', async () => {
    const fetch = mockFetch({ '/api/auth/register': { body: { type: 'success', token: '9|new' } } });
    render(<RegistrationPage />);
    fill(good);
    fireEvent.click(screen.getByLabelText('Outside Dhaka'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({
      name: 'Rina Akter',
      email: 'rina@example.com',
      telephone: '01712345678',
      emergency_contact_number: '01812345678',
      district: 'Outside Dhaka',
      password: 'secret12',
      password_confirmation: 'secret12',
      agree: true,
      device_name: 'web_browser',
    });
    expect(authToken()).toBe('9|new');
    expect(navigate).toHaveBeenCalledWith('/user/profile?welcome');
  });

  it('puts the API field messages beside their fields', async () => {
    mockFetch({
      '/api/auth/register': {
        status: 422,
        body: { success: false, message: 'Please correct the fields marked below.', errors: { email: ['This email already has an account.'] } },
      },
    });
    render(<RegistrationPage />);
    fill(good);
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await flush();
    expect(screen.getByText('This email already has an account.')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });
});
