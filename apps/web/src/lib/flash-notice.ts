/**
 * A one-time message for the next page, kept in sessionStorage: it survives the redirects a sign-out
 * triggers (the portal's guard replaces the location, and with it any router state).
 */
const KEY = 'hp-flash-notice';

export function setFlashNotice(message: string) {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    // Storage disabled: the message is a courtesy, the action already happened.
  }
}

/** Reads the message once and forgets it. */
export function takeFlashNotice(): string | null {
  try {
    const message = sessionStorage.getItem(KEY);
    if (message !== null) sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return null;
  }
}
