// The app's own dialogs (components/Dialog.tsx) replace window.confirm and window.alert: a
// browser test reads their text and answers them like a user.
import type { Page } from 'playwright-core';
import { ko } from '../../../src/i18n/ko';

/** Waits for the app's alert dialog, presses `button` in it and returns the message it showed. */
export async function answerDialog(page: Page, button: string = ko.dialog.ok, timeout = 30_000): Promise<string> {
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor({ timeout });
  const message = (await dialog.locator('.dialog__message').innerText()).trim();
  await dialog.getByRole('button', { name: button, exact: true }).click({ timeout });
  await dialog.waitFor({ state: 'detached', timeout });
  return message;
}
