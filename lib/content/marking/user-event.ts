/**
 * Whether an event was made by the user, not by the page. Only such events may start paid work:
 * a page script can dispatch any event (`isTrusted` false), and it can make the browser fire
 * trusted focus events itself (`focus()`/`blur()`), so a typed field also needs a trusted edit
 * made while the user was interacting (transient user activation, which no script can grant).
 */
export const userEvents = {
  /** Replaced by unit tests only: a DOM emulation cannot make trusted events. */
  trusted: (event: Event): boolean => event.isTrusted,
};

export function isUserEvent(event: Event): boolean {
  return userEvents.trusted(event);
}

/** True while the user is interacting with the page (or when the browser cannot tell). */
export function userIsActive(win: Window): boolean {
  const activation = (win.navigator as { userActivation?: { isActive: boolean } }).userActivation;
  return activation?.isActive ?? true;
}
