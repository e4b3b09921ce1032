/** The adult-content entry warning's accepted flag (LAY-02): a cookie, one year. */
export const ENTRY_COOKIE = 'entry_ok';
export const ENTRY_COOKIE_MAX_AGE = 365 * 24 * 3600;
