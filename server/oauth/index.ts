/**
 * OAuth for assistants, as createApp uses it: the routes, the resolver /mcp asks about a Bearer token, and
 * the WWW-Authenticate challenge /mcp sends with a 401 (from the loaded build's base URL; null before one), and
 * the gate of the sign-in address `/mcp?signin` (signin.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type express from 'express';
import { bearerChallenge } from './metadata.ts';
import { createOAuthRouter, type OAuthRouteDeps } from './routes.ts';
import { createBearerResolver, issuerOf, type BearerResolver } from './service.ts';
import { signinGate } from './signin.ts';

export type { BearerResolver } from './service.ts';

export interface OAuth {
  router: express.Router;
  /** an access token's API key; null when it is unknown, expired or its key revoked */
  resolveBearer: BearerResolver;
  /** the WWW-Authenticate value of a 401 on /mcp (`invalidToken`: a token was presented and refused) */
  challenge(invalidToken: boolean): string | null;
  /** `/mcp?signin` without a token: 401 with the challenge (true: answered); with one, the request goes on as `/mcp` */
  signinGate(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createOAuth(deps: OAuthRouteDeps): OAuth {
  const challenge = (invalidToken: boolean) => (deps.registry.current ? bearerChallenge(issuerOf(deps.registry.current.baseUrl), invalidToken) : null);
  return {
    router: createOAuthRouter(deps),
    resolveBearer: createBearerResolver({ store: deps.store, clock: deps.clock }),
    challenge,
    signinGate: (req, res) => signinGate(req, res, challenge(false)),
  };
}
