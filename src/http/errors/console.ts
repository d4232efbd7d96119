import { signInPage } from '../pages/console/layout.ts';
import { sendPage } from '../pages/page-reply.ts';
import { pageErrorHandler } from './pages.ts';

// The console's errors: its sign-in form with a message in English (the console stays in English), whatever
// went wrong; the statuses are the hosted pages' (pages.ts).

/** The console's error pages: its sign-in form with a message, whatever went wrong. */
export function consoleErrors() {
  const readable = signInPage('', 'The request could not be read.');
  const pages = {
    refused: () => readable,
    tooMany: () => signInPage('', 'Too many attempts from your address. Wait a few minutes.'),
    malformed: readable,
    failed: signInPage('', 'Something went wrong on our side; the details are in the server log.'),
    stopping: signInPage('', 'The service is restarting. Try again in a few seconds.'),
  };
  return pageErrorHandler(sendPage, () => pages, 'console page');
}
