import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { DataError } from '../errors.js';

/**
 * A `lookup` for http(s).get that resolves the host itself and refuses it unless `reason` finds
 * nothing wrong with EVERY address it resolves to (privateAddressReason for public-only). The socket then connects to exactly the address
 * returned here, so a DNS answer that changes between the check and the connect (rebinding) cannot
 * reach a private address: there is no second resolution.
 * @example http.get(url, { lookup: checkedLookup(url.href, privateAddressReason) })
 */
export function checkedLookup(href: string, reason: (address: string) => string | undefined): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(
      hostname,
      { all: true, family: options.family ?? 0, hints: options.hints ?? 0 },
      (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const bad = addresses.find((a) => reason(a.address) !== undefined);
        if (bad || addresses.length === 0) {
          const why = bad
            ? `${hostname} resolves to ${bad.address}, ${reason(bad.address)}`
            : `${hostname} resolves to no address`;
          return callback(blocked(href, why) as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    );
  };
}

/** DOWNLOAD_BLOCKED for a destination the policy refuses. */
export function blocked(href: string, why: string): DataError {
  return new DataError(
    'DOWNLOAD_BLOCKED',
    `Refused to fetch ${href}: ${why}. Only public internet addresses are fetched for a URL a model names.`,
    {
      hint: 'Send the file itself instead of a URL. An operator who trusts the model with the local network can start the server with --allow-private-table-urls.',
    },
  );
}
