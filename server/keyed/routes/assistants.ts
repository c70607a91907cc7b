/**
 * The assistants connected with the caller's key (OAuth approvals, server/oauth/), never counted:
 *   GET  /api/v1/me/assistants                 each approval whose access has not ended
 *   POST /api/v1/me/assistants/disconnect?id=  end one: its access and refresh tokens stop working at once
 * Only the key's own approvals are listed or ended; another key's id is a 404 like an unknown one.
 */
import type { AssistantsResponse, DisconnectResponse } from '../../../build/contract/keyed-api.ts';
import { REFRESH_SECONDS } from '../../oauth/service.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { KeyedError } from '../errors.ts';
import type { KeyedDeps } from '../middleware.ts';
import { allowOnly, single, type Query } from '../params.ts';

const hostOf = (uri: string): string => {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
};

export async function assistantsRoute(query: Query, l: KeyedLocals, deps: KeyedDeps): Promise<Answer> {
  allowOnly(query, []);
  const grants = await deps.store.listOAuthGrants(l.key!.id, l.now!.toISOString());
  const body: AssistantsResponse = {
    key_prefix: l.key!.key_prefix,
    assistants: grants.map((g) => ({
      id: g.grant_id,
      name: g.client_name,
      redirect_hosts: [...new Set(g.redirect_uris.map(hostOf))],
      last_refreshed_at: new Date(Date.parse(g.expires_at) - REFRESH_SECONDS * 1000).toISOString(),
      expires_at: g.expires_at,
    })),
  };
  return { body, cacheControl: 'no-store' };
}

export async function disconnectAssistantRoute(query: Query, l: KeyedLocals, deps: KeyedDeps): Promise<Answer> {
  allowOnly(query, ['id']);
  const id = single(query, 'id');
  if (!id) throw new KeyedError('bad_request', 'id is required: the assistant\'s id from GET /api/v1/me/assistants');
  if (id.length > 100 || !(await deps.store.revokeOAuthGrantOfKey(id, l.key!.id))) {
    throw new KeyedError('not_found', 'no assistant with this id is connected with this key (disconnected already, or never connected)');
  }
  const body: DisconnectResponse = { disconnected: id };
  return { body, cacheControl: 'no-store' };
}
