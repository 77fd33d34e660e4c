/** RFC 5322 atext: what a dot-atom local part is made of (no specials, no spaces). */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

export const EMAIL_ADDRESS_RULE = 'one e-mail address such as name@example.com (no display name, no list)';

/**
 * One e-mail address as a bare addr-spec: a dot-atom local part of at most 64 characters and a
 * host name (letters, digits, hyphens; a top-level domain), 254 characters in all. These
 * addresses end up in a mail's To header, so everything that a mail library could read as
 * another recipient or another header is refused: whitespace (CR/LF above all), commas and
 * semicolons (lists), display names and angle brackets, quoted local parts, comments, IP
 * literals and a second @.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const parts = value.split('@');
  if (parts.length !== 2) return false;
  const [local, host] = parts as [string, string];
  const labels = host.split('.');
  return (
    local.length <= 64 &&
    LOCAL_PART.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    TOP_LEVEL.test(labels[labels.length - 1]!)
  );
}
