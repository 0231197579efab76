// D15 D25 D28: the one confirm dialog: Cancel first, Escape cancels, busy keeps the focus, a refusal in words.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import './no-console';
import { ConfirmDialog } from '../../src/ui/confirm-dialog';

const show = (props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) => {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  render(
    <ConfirmDialog title="Delete this note?" confirm="Delete note" busyLabel="Deleting…" onConfirm={onConfirm} onCancel={onCancel} {...props}>
      <p>It cannot be undone.</p>
    </ConfirmDialog>,
  );
  return { onConfirm, onCancel, dialog: screen.getByRole('dialog', { name: 'Delete this note?' }) };
};

describe('ConfirmDialog', () => {
  it('D15 Cancel has the focus first, so Enter never confirms by accident; Escape cancels', () => {
    const { onCancel, onConfirm, dialog } = show();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete note' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('D25 the confirming button wears the one danger style; a weighty change that removes nothing, the primary', () => {
    const { dialog } = show();
    expect(within(dialog).getByRole('button', { name: 'Delete note' }).className).toBe('btn btn-danger');
  });

  it('D15 busy: the button says so, keeps the focus (aria-disabled) and a second press does nothing', () => {
    const { onConfirm, dialog } = show({ busy: true });
    const button = within(dialog).getByRole('button', { name: 'Deleting…' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('a refusal is said inside the dialog, announced', () => {
    const { dialog } = show({ error: 'Could not delete the note: it no longer exists.', tone: 'primary', cancel: 'Keep it' });
    expect(within(dialog).getByRole('alert').textContent).toBe('Could not delete the note: it no longer exists.');
    expect(within(dialog).getByRole('button', { name: 'Delete note' }).className).toBe('btn btn-primary');
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toBeTruthy();
  });

  it('D15 a dialog over another has the keys: Escape cancels the top one only, and Tab stays in it', () => {
    const below = vi.fn();
    const above = vi.fn();
    const { rerender } = render(
      <ConfirmDialog title="Remove Mo?" confirm="Remove" busyLabel="Removing…" onConfirm={() => {}} onCancel={below}>
        <p>Mo loses access.</p>
      </ConfirmDialog>,
    );
    rerender(
      <>
        <ConfirmDialog title="Remove Mo?" confirm="Remove" busyLabel="Removing…" onConfirm={() => {}} onCancel={below}>
          <p>Mo loses access.</p>
        </ConfirmDialog>
        <ConfirmDialog title="Session expired?" confirm="Sign in" busyLabel="…" onConfirm={() => {}} onCancel={above}>
          <p>Sign in again.</p>
        </ConfirmDialog>
      </>,
    );
    const top = screen.getByRole('dialog', { name: 'Session expired?' });
    const buttons = within(top).getAllByRole('button');
    expect(document.activeElement).toBe(buttons[0]);
    buttons[buttons.length - 1]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(document.activeElement).toBe(buttons[0]); // around the top dialog, not into the one below
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(above).toHaveBeenCalledTimes(1);
    expect(below).not.toHaveBeenCalled();
  });
});
