// Its own module, not part of the login page: the verification page uses it too, and importing it from the login
// page made the login page a shared chunk behind a route chunk of 357 bytes, one request more on the way to the form.

/** `?next=` after a login: only the shop's and the portal's own pages (no open redirect). */
export function safeNext(next: string | null): string | null {
  if (!next || !/^\/(shop|dashboard)(\/|\?|$)/.test(next) || next.includes('//') || next.includes('\\')) return null;
  return next;
}
