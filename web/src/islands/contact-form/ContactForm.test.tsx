import { act, fireEvent, render, screen } from '@testing-library/react';
import { mockFetch, sentJson } from '../../lib/test-utils';
import { ContactForm, check } from './ContactForm';

const flush = () =>
  act(async () => {
    for (let i = 0; i < 6; i++) await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
  });
afterEach(() => vi.unstubAllGlobals());

function fill(name: string, contact: string, message: string) {
  fireEvent.change(screen.getByLabelText('Your name'), { target: { value: name } });
  fireEvent.change(screen.getByLabelText('Mobile or e-mail'), { target: { value: contact } });
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: message } });
  fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
}

describe('contact-form', () => {
  it('sends the message as JSON and confirms it', async () => {
    const fetch = mockFetch({ '/api/common/contact': { body: { success: true, message: 'Thank you: your message has reached us.' } } });
    render(<ContactForm />);
    fill(' Rahima ', '01712345678', 'Is the Oslo bed in stock?');
    await flush();
    expect(sentJson(fetch.mock.calls[0][1])).toEqual({ name: 'Rahima', contact: '01712345678', message: 'Is the Oslo bed in stock?' });
    expect(screen.getByRole('status').textContent).toContain('Thank you: your message has reached us.');
    fireEvent.click(screen.getByRole('button', { name: 'Write another message' }));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Message').value).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Your name').value).toBe(' Rahima ');
  });

  it('checks the fields before sending and shows the API’s field errors beside them', async () => {
    const fetch = mockFetch({
      '/api/common/contact': {
        status: 400,
        body: { success: false, message: 'Bad', errors: { contact: ['That is neither a mobile number (01XXXXXXXXX) nor an e-mail address.'] } },
      },
    });
    render(<ContactForm />);
    fill('R', 'nobody', 'short');
    await flush();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByText('Please write your name (2-80 characters).')).toBeTruthy();
    expect(screen.getByLabelText('Message').getAttribute('aria-invalid')).toBe('true');
    fill('Rahima', '01212345678', 'A message long enough.');
    await flush();
    expect(fetch).toHaveBeenCalledOnce();
    expect(screen.getByText('That is neither a mobile number (01XXXXXXXXX) nor an e-mail address.')).toBeTruthy();
    expect(screen.getByLabelText('Mobile or e-mail').getAttribute('aria-invalid')).toBe('true');
  });

  it('says a refused message was not sent and offers the phone', async () => {
    mockFetch({
      '/api/common/contact': { status: 429, headers: { 'Retry-After': '600' }, body: { success: false, message: 'You have sent several messages already.' } },
    });
    render(<ContactForm phone={{ href: 'tel:09612345678', text: '09612345678' }} />);
    fill('Rahima', 'rahima@example.com', 'A message long enough.');
    await flush();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('You have sent several messages already.');
    expect(screen.getByRole('link', { name: '09612345678' }).getAttribute('href')).toBe('tel:09612345678');
  });

  it('shows the confirmation after the plain form was sent', () => {
    render(<ContactForm sent />);
    expect(screen.getByRole('status').textContent).toContain('Thank you');
    expect(check({ name: 'Ab', contact: 'a@b.co', message: '0123456789' })).toEqual({});
  });
});
