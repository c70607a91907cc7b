/**
 * The MCP protocol revisions /mcp serves: one list, used by `server/discover`, the -32022 error of a
 * 2026-era request naming another revision, the MCP-Protocol-Version check of 2025-era requests, the
 * initialize negotiation, /.well-known/mcp.json and README ("Tool server (MCP)"). Newest first.
 *
 * The 2024 revisions are not served: their HTTP transport (HTTP+SSE, a GET stream and a separate POST
 * endpoint) is not this endpoint's Streamable HTTP, which begins with 2025-03-26. An initialize request
 * asking for one gets the newest 2025 revision, as the specification's negotiation says.
 */

/** The 2026-era revision (no handshake, a `_meta` envelope on every request). */
export const MODERN_VERSION = '2026-07-28';

/** The 2025-era revisions (initialize, then plain requests), newest first. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

/** The sentence naming the list, in errors. */
export const SERVED_VERSIONS_TEXT = `this server serves MCP protocol revisions ${PROTOCOL_VERSIONS.join(', ')}`;

/**
 * A 2026-era answer of the SDK with this server's list: the SDK's `server/discover` result and its -32022
 * error name only the 2026 revisions it implements (`supportedVersions`, `data.supported`); the endpoint
 * also serves the 2025 ones. Null: nothing to change.
 */
export function withServedVersions(answer: unknown, method: string | undefined): unknown {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const a = answer as { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown; data?: Record<string, unknown> } };
  if (method === 'server/discover' && a.result && Array.isArray(a.result.supportedVersions)) {
    return { ...a, result: { ...a.result, supportedVersions: [...PROTOCOL_VERSIONS] } };
  }
  if (a.error?.code === -32022) {
    const requested = typeof a.error.data?.requested === 'string' ? a.error.data.requested : undefined;
    return {
      ...a,
      error: {
        ...a.error,
        message: `Unsupported protocol version${requested && requested !== 'unknown' ? ` ${requested}` : ''}: ${SERVED_VERSIONS_TEXT}`,
        data: { ...a.error.data, supported: [...PROTOCOL_VERSIONS] },
      },
    };
  }
  return null;
}
