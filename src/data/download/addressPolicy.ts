import { isIPv4, isIPv6 } from 'node:net';

/**
 * Where a fetch may connect: anywhere, public internet addresses only, or a check of one's own
 * (an IP literal -> why it is refused, or undefined; tests use it to refuse one loopback address
 * while serving from another).
 */
export type Destinations = 'any' | 'public' | ((address: string) => string | undefined);

/** The check for a policy, or undefined for 'any'. */
export function addressCheck(
  destinations: Destinations | undefined,
): ((address: string) => string | undefined) | undefined {
  if (destinations === undefined || destinations === 'any') return undefined;
  return destinations === 'public' ? privateAddressReason : destinations;
}

type Range = [bytes: number[], bits: number, what: string];

// IPv4 ranges that are not the public internet (IANA special-purpose registry, RFC 6890 and later)
const V4: Range[] = [
  [[0, 0, 0, 0], 8, 'this network (0.0.0.0/8)'],
  [[10, 0, 0, 0], 8, 'private (10.0.0.0/8)'],
  [[100, 64, 0, 0], 10, 'carrier-grade NAT (100.64.0.0/10)'],
  [[127, 0, 0, 0], 8, 'loopback (127.0.0.0/8)'],
  [[169, 254, 0, 0], 16, 'link-local, incl. cloud metadata (169.254.0.0/16)'],
  [[172, 16, 0, 0], 12, 'private (172.16.0.0/12)'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments (192.0.0.0/24)'],
  [[192, 0, 2, 0], 24, 'documentation (192.0.2.0/24)'],
  [[192, 88, 99, 0], 24, '6to4 relay anycast (192.88.99.0/24)'],
  [[192, 168, 0, 0], 16, 'private (192.168.0.0/16)'],
  [[198, 18, 0, 0], 15, 'benchmarking (198.18.0.0/15)'],
  [[198, 51, 100, 0], 24, 'documentation (198.51.100.0/24)'],
  [[203, 0, 113, 0], 24, 'documentation (203.0.113.0/24)'],
  [[224, 0, 0, 0], 4, 'multicast (224.0.0.0/4)'],
  [[240, 0, 0, 0], 4, 'reserved or broadcast (240.0.0.0/4)'],
];

// IPv6: only global unicast (2000::/3) is public, less these parts of it
const V6_IN_GLOBAL: Range[] = [
  [[0x20, 0x01, 0x00, 0x00], 23, 'IETF protocol assignments, incl. Teredo (2001::/23)'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation (2001:db8::/32)'],
  [[0x3f, 0xff, 0, 0], 20, 'documentation (3fff::/20)'],
];

/**
 * Why `address` (an IP literal) is not a public internet address, or undefined when it is. IPv4
 * inside IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is
 * judged by the IPv4 address it carries; other IPv6 must be global unicast (2000::/3), so loopback
 * ::1, ULA fc00::/7, link-local fe80::/10, site-local and multicast ff00::/8 are refused.
 * @example privateAddressReason('169.254.169.254') // 'link-local, incl. cloud metadata (169.254.0.0/16)'
 */
export function privateAddressReason(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(ip)) return v4Reason(ip.split('.').map(Number));
  if (!isIPv6(ip)) return 'not an IP address';
  const b = v6Bytes(ip);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return embedded(b.slice(12), 'IPv4-mapped');
  if (zeros(0, 12))
    return zeros(12, 15) && b[15] <= 1
      ? b[15] === 1
        ? 'loopback (::1)'
        : 'unspecified (::)'
      : embedded(b.slice(12), 'IPv4-compatible');
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b)
    return b[4] === 0 && b[5] === 0 && zeros(6, 12)
      ? embedded(b.slice(12), 'NAT64')
      : 'NAT64 local-use (64:ff9b:1::/48)';
  if (b[0] === 0x20 && b[1] === 0x02) return embedded(b.slice(2, 6), '6to4');
  if ((b[0] & 0xe0) !== 0x20) {
    if ((b[0] & 0xfe) === 0xfc) return 'unique local (fc00::/7)';
    if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local (fe80::/10)';
    if (b[0] === 0xff) return 'multicast (ff00::/8)';
    return 'not global unicast (outside 2000::/3)';
  }
  return V6_IN_GLOBAL.find(([net, bits]) => inRange(b, net, bits))?.[2];
}

function embedded(v4: number[], form: string): string | undefined {
  const why = v4Reason(v4);
  return why && `${form} ${v4.join('.')}: ${why}`;
}

function v4Reason(b: number[]): string | undefined {
  return V4.find(([net, bits]) => inRange(b, net, bits))?.[2];
}

function inRange(b: number[], net: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((b[i >> 3]! & mask) !== (net[i >> 3]! & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 literal (already checked by isIPv6), with a dotted IPv4 tail. */
function v6Bytes(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}
