import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../vendor/mcpSdk.js';
import { z } from 'zod';

/** The stateless protocol revision (no initialize; version and capabilities in each request's `_meta`). */
export const STATELESS_PROTOCOL_VERSION = '2026-07-28';

/** The key of a 2026-07-28 request's `params._meta` that carries its protocol version. */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

/** Every protocol version this server speaks, newest first. */
export const SERVED_PROTOCOL_VERSIONS = [
  STATELESS_PROTOCOL_VERSION,
  ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== STATELESS_PROTOCOL_VERSION),
];

const DiscoverRequestSchema = z.object({
  method: z.literal('server/discover'),
  params: z
    .object({ _meta: z.record(z.string(), z.unknown()).optional() })
    .passthrough()
    .optional(),
});

/**
 * Answer `server/discover` (the 2026-07-28 revision's replacement for the initialize exchange):
 * the versions served, the server's capabilities, its name/version and instructions. Stateless:
 * nothing is remembered, and it answers before or without `initialize`. The SDK (1.32) does not
 * know the method yet, so it is registered here on its low-level Server.
 * @example registerDiscover(mcp.server, { name: 'sbirtools', version }, instructions)
 */
export function registerDiscover(server: Server, info: { name: string; version: string }, instructions: string): void {
  server.setRequestHandler(
    DiscoverRequestSchema as never,
    (async () => ({
      supportedVersions: SERVED_PROTOCOL_VERSIONS,
      // the capabilities the server registered (tools, resources, logging), as initialize reports them
      capabilities: (server as unknown as { getCapabilities(): unknown }).getCapabilities() ?? {},
      serverInfo: info,
      instructions,
    })) as never,
  );
}

/** The version a legacy (2025-era) transport check accepts, for a request of the stateless revision. */
export const LEGACY_TRANSPORT_VERSION = LATEST_PROTOCOL_VERSION;
