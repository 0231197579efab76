// STYLE "Forms and data in the app": useForm and Field, by role and name as a person uses them.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import '../ui/no-console';
import { AbortError, HttpError, NetworkError } from '../../src/http/errors';
import { Field, MSG_SUBMIT_FAILED, useForm, type FormErrors } from '../../src/ui/form';

interface Values {
  [k: string]: string | boolean;
  name: string;
  email: string;
  status: string;
  notes: string;
}
const INITIAL: Values = { name: '', email: '', status: 'active', notes: '' };
const validate = (v: Values): FormErrors<Values> => (v.name.trim() ? {} : { name: 'Name is required' });

function CustomerForm({ submit }: { submit: (v: Values) => unknown }) {
  const form = useForm<Values>({ initial: INITIAL, validate, submit });
  return (
    <form onSubmit={form.onSubmit} noValidate aria-label="Customer">
      {form.formError && <p role="alert">{form.formError}</p>}
      <Field form={form} name="name" label="Name" />
      <Field form={form} name="email" label="Email" type="email" />
      <Field form={form} name="status" label="Status" as="select">
        <option value="lead">Lead</option>
        <option value="active">Active</option>
      </Field>
      <Field form={form} name="notes" label="Notes" as="textarea" />
      <button type="submit" disabled={form.submitting}>
        {form.submitting ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(box(name), { target: { value } });
const save = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));

describe('STYLE useForm and Field', () => {
  test('STYLE Field renders a label tied to its input, select or textarea, and the field carries id, name and value', () => {
    render(<CustomerForm submit={vi.fn()} />);
    expect(box('Name').tagName).toBe('INPUT');
    expect(box('Name').name).toBe('name');
    expect(box('Email').type).toBe('email');
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('active');
    expect(box('Notes').tagName).toBe('TEXTAREA');
    expect(box('Name').getAttribute('aria-invalid')).toBeNull();
    expect(box('Name').getAttribute('aria-describedby')).toBeNull();
  });

  test('STYLE validate: errors show under their fields, tied by aria-describedby (D15); the first gets the focus; nothing is sent', async () => {
    const submit = vi.fn();
    render(<CustomerForm submit={submit} />);
    await save();
    const error = screen.getByText('Name is required');
    expect(box('Name').getAttribute('aria-invalid')).toBe('true');
    expect(box('Name').getAttribute('aria-describedby')).toBe(error.id);
    expect(document.activeElement).toBe(box('Name'));
    expect(submit).not.toHaveBeenCalled();
    type('Name', 'A');
    expect(screen.queryByText('Name is required')).toBeNull(); // editing a field clears its error
  });

  test('STYLE submit gets the values as typed and selected; submitting is true meanwhile', async () => {
    let release!: () => void;
    const submit = vi.fn(() => new Promise<void>((r) => (release = r)));
    render(<CustomerForm submit={submit} />);
    type('Name', 'Ann Patel');
    type('Email', 'ann@example.com');
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'lead' } });
    await save();
    expect(submit).toHaveBeenCalledWith({ name: 'Ann Patel', email: 'ann@example.com', status: 'lead', notes: '' });
    expect((screen.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(screen.getByRole('form', { name: 'Customer' })); // a second press sends nothing
    expect(submit).toHaveBeenCalledTimes(1);
    await act(async () => release());
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  test('STYLE a server 400 naming a field lands on that field, with the focus, and keeps every typed value', async () => {
    render(<CustomerForm submit={async () => Promise.reject(new HttpError(400, { detail: 'must be an email address', code: 'invalid', field: 'email' }, '/x'))} />);
    type('Name', 'Ann');
    type('Email', 'ann@');
    await save();
    expect(screen.getByText('must be an email address').id).toBe(box('Email').getAttribute('aria-describedby'));
    expect(box('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box('Email'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect([box('Name').value, box('Email').value]).toEqual(['Ann', 'ann@']);
  });

  test('STYLE a 400 without a field (or naming no field of this form) is a form-level error; values stay', async () => {
    const errors = [
      new HttpError(400, { detail: 'Too many tags', code: 'invalid' }, '/x'),
      new HttpError(400, { detail: 'version is required', code: 'missing_field', field: 'version' }, '/x'),
    ];
    render(<CustomerForm submit={async () => Promise.reject(errors.shift())} />);
    type('Name', 'Ann');
    await save();
    expect(screen.getByRole('alert').textContent).toBe('Too many tags');
    await save();
    expect(screen.getByRole('alert').textContent).toBe('version is required');
    expect(box('Name').value).toBe('Ann');
    expect(box('Name').getAttribute('aria-invalid')).toBeNull();
  });

  test('STYLE any other failure is a form-level error: the server’s detail, or a plain message; typed values are never cleared', async () => {
    const errors: unknown[] = [
      new HttpError(409, { detail: 'Someone else changed this customer.', code: 'conflict' }, '/x'),
      new NetworkError('/x', null),
      new Error('boom'),
    ];
    render(<CustomerForm submit={async () => Promise.reject(errors.shift())} />);
    type('Name', 'Ann');
    type('Notes', 'Gate code 1234');
    await save();
    expect(screen.getByRole('alert').textContent).toBe('Someone else changed this customer.');
    await save();
    expect(screen.getByRole('alert').textContent).toBe(MSG_SUBMIT_FAILED);
    await save();
    expect(screen.getByRole('alert').textContent).toBe(MSG_SUBMIT_FAILED);
    expect([box('Name').value, box('Notes').value]).toEqual(['Ann', 'Gate code 1234']);
  });

  test('a cancelled submit (left the page) shows nothing', async () => {
    render(<CustomerForm submit={async () => Promise.reject(new AbortError('/x', 'aborted'))} />);
    type('Name', 'Ann');
    await save();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('a new submit clears the last form-level error', async () => {
    const answers = [Promise.reject(new NetworkError('/x', null)), new Promise<void>(() => undefined)];
    answers[0]!.catch(() => undefined);
    render(<CustomerForm submit={() => answers.shift()} />);
    type('Name', 'Ann');
    await save();
    expect(screen.getByRole('alert')).toBeTruthy();
    await save();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
