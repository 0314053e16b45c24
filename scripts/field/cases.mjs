/**
 * What the field run asks, and the verdict each real server's answer means (README, "Reading
 * real mail servers"). `server` names what answers: postfix, exim, or none (decided before SMTP).
 * `bulk` is the verdict expected in the bulk file (mode catch_all) when it differs.
 */
const ok = (status, reason) => ({ status, reason });

export const CASES = [
  {
    id: 'postfix-421-first-mx',
    what: 'MX 10 answers 421 at the greeting, MX 20 is Postfix',
    email: 'alice@twomx.field.test',
    mode: 'non_catch_all',
    server: 'postfix',
    expect: { ...ok('deliverable', 'accepted_email'), mx_host: 'mx-pf.field.test' },
  },
  {
    id: 'postfix-known-user',
    what: 'Postfix local recipient table, known user',
    email: 'carol@users.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('deliverable', 'accepted_email'),
  },
  {
    id: 'postfix-unknown-user',
    what: 'Postfix local recipient table, unknown user',
    email: 'nobody@users.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('undeliverable', 'rejected_email'),
  },
  {
    id: 'postfix-mailbox-full',
    what: 'Postfix recipient access map: mailbox full',
    email: 'full@users.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('risky', 'mailbox_full'),
  },
  {
    id: 'postgrey-greylisting',
    what: 'Postfix + postgrey: greylisted, accepted on the retry',
    email: 'dora@grey.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('deliverable', 'accepted_email'),
  },
  {
    id: 'postfix-client-blocked',
    what: 'Postfix client access map with a blocklist text',
    email: 'eve@blocked.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('unknown', 'blocked'),
  },
  {
    id: 'postfix-relay-denied',
    what: 'Postfix, a domain it does not serve (relay)',
    email: 'x@relay.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('unknown', 'blocked'),
  },
  {
    id: 'postfix-catch-all',
    what: 'Postfix virtual catch-all domain, mode catch_all',
    email: 'anyone@catchall.field.test',
    mode: 'catch_all',
    server: 'postfix',
    expect: ok('risky', 'catch_all'),
  },
  {
    id: 'postfix-catch-all-off',
    what: 'Postfix virtual catch-all domain, mode non_catch_all',
    email: 'someone@catchall.field.test',
    mode: 'non_catch_all',
    server: 'postfix',
    expect: ok('deliverable', 'accepted_email'),
    bulk: ok('risky', 'catch_all'),
  },
  {
    id: 'url-like-path',
    what: 'URL-like address (path)',
    email: 'dave@users.field.test/x',
    mode: 'catch_all',
    server: 'none',
    expect: ok('undeliverable', 'invalid_syntax'),
  },
  {
    id: 'url-like-query',
    what: 'URL-like address (query)',
    email: 'erin@users.field.test?x',
    mode: 'catch_all',
    server: 'none',
    expect: ok('undeliverable', 'invalid_syntax'),
  },
  {
    id: 'url-like-percent',
    what: 'percent-encoded dot in the domain',
    email: 'frank@users%2efield.test',
    mode: 'catch_all',
    server: 'none',
    expect: ok('undeliverable', 'invalid_syntax'),
  },
  {
    id: 'dns-nxdomain',
    what: 'knot: NXDOMAIN',
    email: 'a@missing.field.test',
    mode: 'catch_all',
    server: 'none',
    expect: ok('undeliverable', 'invalid_domain'),
  },
  {
    id: 'dns-no-mail',
    what: 'knot: name with neither MX nor A',
    email: 'a@nomail.field.test',
    mode: 'catch_all',
    server: 'none',
    expect: ok('undeliverable', 'no_mx'),
  },
  {
    id: 'exim-known-user',
    what: 'Exim, known user',
    email: 'alice@exim.field.test',
    mode: 'catch_all',
    server: 'exim',
    expect: ok('deliverable', 'accepted_email'),
  },
  {
    id: 'exim-unknown-user',
    what: 'Exim, unknown user (no enhanced code)',
    email: 'nobody@exim.field.test',
    mode: 'catch_all',
    server: 'exim',
    expect: ok('undeliverable', 'rejected_email'),
  },
  {
    id: 'exim-blocklist',
    what: 'Exim ACL, blocklist text (no enhanced code)',
    email: 'x@exim-bl.field.test',
    mode: 'catch_all',
    server: 'exim',
    expect: ok('unknown', 'blocked'),
  },
  {
    id: 'exim-relay',
    what: 'Exim, a domain it does not serve (no enhanced code)',
    email: 'y@exim-relay.field.test',
    mode: 'catch_all',
    server: 'exim',
    expect: ok('unknown', 'blocked'),
  },
];

/** Does a result (status, reason, mx_host) match what the case expects? */
export function matches(expected, result) {
  return Object.entries(expected).every(([field, value]) => result[field] === value);
}
