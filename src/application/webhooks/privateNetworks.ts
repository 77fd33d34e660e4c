import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges a webhook must never reach in production (SSRF): "this network", private networks,
 * carrier-grade NAT, loopback, link-local (cloud metadata at 169.254.169.254), IETF protocol
 * assignments, benchmarking, multicast, reserved and broadcast.
 */
const PRIVATE_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
/**
 * IPv6: unspecified, loopback and IPv4-compatible (::/96), unique local (fc00::/7), link-local,
 * site-local, multicast, and local-use NAT64 (64:ff9b:1::/48, which maps to private networks).
 */
const PRIVATE_IPV6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
];

const PRIVATE = new BlockList();
for (const [network, prefix] of PRIVATE_IPV4) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
  // The same ranges reached through IPv6 (IPv4-mapped ::ffff:0:0/96 addresses are checked against the
  // IPv4 ranges by BlockList itself): NAT64's well-known prefix 64:ff9b::/96 and 6to4's 2002::/16.
  const [high, low] = ipv4Groups(network);
  PRIVATE.addSubnet(`64:ff9b::${high}:${low}`, 96 + prefix, 'ipv6');
  PRIVATE.addSubnet(`2002:${high}:${low}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of PRIVATE_IPV6) PRIVATE.addSubnet(network, prefix, 'ipv6');

/** An IPv4 address as the two 16-bit hexadecimal groups it fills in an IPv6 address. */
function ipv4Groups(address: string): [string, string] {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/%.*$/, ''); // an IPv6 zone (fe80::1%eth0) says nothing about the range
  const family = isIP(bare);
  return family === 4 ? PRIVATE.check(bare, 'ipv4') : family === 6 ? PRIVATE.check(bare, 'ipv6') : false;
}

/** For a URL's host as written: literal private addresses and localhost names. Names are checked again when connecting. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}
