/**
 * Header rows and the column the email-column rule picks (docs/design.md §3 "Bulk"), for both
 * sides' tests. Trimming, decided: a leading BOM and white space around a name never count, on
 * the header and on the requested name alike, before the exact match (so `" email"` and
 * `"Email "` pick `"Email "`, as the service always did); inner characters always count.
 */
export interface EmailColumnCase {
  why: string;
  header: string[];
  requested?: string;
  /** -1: no column. */
  index: number;
}

export const EMAIL_COLUMN_CASES: readonly EmailColumnCase[] = [
  { why: 'defaults to a column named Email', header: ['Name', 'Email', 'Phone'], index: 1 },
  { why: 'an empty request means the default', header: ['Name', 'Email'], requested: '', index: 1 },
  { why: 'no Email column: none', header: ['Name', 'Phone'], index: -1 },
  { why: 'an exact match wins over a case-insensitive one', header: ['email', 'Email'], index: 1 },
  { why: 'then a case-insensitive match', header: ['EMAIL', 'Name'], index: 0 },
  {
    why: 'a requested name, exactly',
    header: ['Work email', 'work EMAIL'],
    requested: 'work EMAIL',
    index: 1,
  },
  { why: 'a requested name, any case', header: ['Work email', 'x'], requested: 'WORK EMAIL', index: 0 },
  { why: 'the first of equal names', header: ['Email', 'Name', 'Email'], index: 0 },
  { why: 'a BOM before the first name is ignored', header: ['\uFEFFEmail', 'Name'], index: 0 },
  { why: 'spaces around a name are ignored', header: ['Name', ' Email '], index: 1 },
  { why: 'a no-break space or a tab around a name is ignored', header: ['Name', '\u00a0Email\t'], index: 1 },
  { why: 'trimmed first, then exact: " email" loses to "Email "', header: [' email', 'Email '], index: 1 },
  {
    why: 'spaces around the requested name are ignored',
    header: ['Name', 'Contact'],
    requested: ' Contact ',
    index: 1,
  },
  { why: 'no substrings', header: ['Emails', 'E-mail'], index: -1 },
  { why: 'inner spaces count', header: ['E mail', 'Name'], index: -1 },
];
