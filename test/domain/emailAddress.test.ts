import { expect } from 'chai';
import { isEmailAddress } from '../../src/domain/emailAddress.js';

describe('E-mail addresses (test-mode recipients)', () => {
  it('Given one plain address, Then it is accepted', () => {
    for (const address of [
      'a@b.co',
      "o'brien+invoices@sub.example.be",
      'A.B-c_d@EXAMPLE.COM',
      'x@xn--bcher-kva.example',
      'qa@tenant.test',
      `${'l'.repeat(64)}@example.com`,
    ]) {
      expect(isEmailAddress(address), address).to.equal(true);
    }
  });

  it('Given header injection, lists, display names or anything but one bare address, Then it is refused', () => {
    const refused = [
      '',
      'a',
      'a@b',
      'a@b.',
      '@b.co',
      'a@',
      'a@.b.co',
      'a@b..co',
      'a..b@c.de',
      '.a@c.de',
      'a.@c.de',
      'a@b@c.de',
      // header injection: CR/LF and other whitespace
      'a@b.co\r\nBcc: victim@evil.test',
      'a@b.co\nBcc: victim@evil.test',
      'a@b.co\rX',
      'a@b.co\tx',
      'a b@c.de',
      ' a@b.co',
      'a@b.co ',
      // several recipients
      'a@b.co,victim@evil.test',
      'a@b.co;victim@evil.test',
      'a@b.co victim@evil.test',
      'a,b@c.de',
      // display names, angle brackets, quotes, comments, group syntax
      'Name <a@b.co>',
      '<a@b.co>',
      'Name<victim@evil.test>',
      '"a b"@c.de',
      '"a"@c.de',
      'a(comment)@b.co',
      'a@b.co(comment)',
      'list: a@b.co;',
      // IP literals and numeric hosts, bad labels, too long
      'a@[127.0.0.1]',
      'a@127.0.0.1',
      'a@b.c',
      'a@-b.co',
      'a@b-.co',
      'a@b_c.co',
      `${'l'.repeat(65)}@example.com`,
      `a@${'d'.repeat(64)}.com`,
      `a@${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`,
      // outside ASCII, control characters
      'ä@b.co',
      'a@bücher.de',
      'a@b.co\u0000',
      'a\u2028@b.co',
    ];
    for (const address of refused) expect(isEmailAddress(address), JSON.stringify(address)).to.equal(false);
  });
});
