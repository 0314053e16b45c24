/**
 * Recipients of a `mailto:` URL (RFC 6068): the path and the `to`, `cc` and `bcc` header fields,
 * each a comma-separated, percent-encoded list. Other fields (subject, body) are ignored.
 */
import { exactAddresses } from './address-list';

const RECIPIENT_FIELDS = new Set(['to', 'cc', 'bcc']);
/**
 * A path that is one plain token: nothing to decode, split or trim, no header fields. Most links
 * on a page look so (`mailto:ann@acme.test`), and a CRM table has a thousand: they skip the parse.
 * Length within what exactAddresses keeps of an entry.
 */
const PLAIN = /^[^\s<>()[\]"',;:?#%&=]{1,320}$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    // Malformed escapes: keep what can be read rather than dropping the link.
    return part.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/**
 * The distinct recipients of a mailto: href (scheme matched in any case), or [] for anything else.
 * Each entry of its lists is one address (or `Name <address>`); an entry that is not comes back
 * whole, to be judged invalid (`mailto:gina smith@good.test` is not `smith@good.test`).
 */
export function mailtoRecipients(href: string): string[] {
  const trimmed = href.trim();
  if (!/^mailto:/i.test(trimmed)) return [];
  const rest = trimmed.slice('mailto:'.length);
  if (PLAIN.test(rest)) return [rest];
  const hash = rest.indexOf('#');
  const noHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  const path = q < 0 ? noHash : noHash.slice(0, q);
  const query = q < 0 ? '' : noHash.slice(q + 1);

  const lists: string[] = [decode(path)];
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = decode(pair.slice(0, eq)).toLowerCase();
    if (RECIPIENT_FIELDS.has(name)) lists.push(decode(pair.slice(eq + 1)));
  }
  const out: string[] = [];
  for (const list of lists) {
    // A recipient that is not one address (`mailto:bob.good.test`) is kept, to be marked invalid.
    for (const address of exactAddresses(list)) if (!out.includes(address)) out.push(address);
  }
  return out;
}
