/**
 * The documents an OAuth client discovers (pure): the protected resource metadata of /mcp (RFC 9728) and the
 * authorization server metadata (RFC 8414), both from the build's base URL (never from the request's Host),
 * and the challenge a 401 on /mcp carries so a client finds them.
 */
import type { Issuer } from './service.ts';

export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';

export function protectedResourceMetadata(is: Issuer): Record<string, unknown> {
  return {
    resource: is.resource,
    authorization_servers: [is.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'physpay tool server',
    resource_documentation: `${is.issuer}/docs/api`,
  };
}

export function authorizationServerMetadata(is: Issuer): Record<string, unknown> {
  return {
    issuer: is.issuer,
    authorization_endpoint: `${is.issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${is.issuer}${TOKEN_PATH}`,
    registration_endpoint: `${is.issuer}${REGISTER_PATH}`,
    revocation_endpoint: `${is.issuer}${REVOKE_PATH}`,
    revocation_endpoint_auth_methods_supported: ['none'],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${is.issuer}/docs/api`,
  };
}

/**
 * The WWW-Authenticate value of a 401 on /mcp: where the resource metadata is (RFC 9728 section 5.1) and, for
 * a token that was presented but is not valid (unknown, expired, revoked), `error="invalid_token"` (RFC 6750).
 */
export function bearerChallenge(is: Issuer, invalidToken: boolean): string {
  const metadata = `resource_metadata="${is.issuer}${PROTECTED_RESOURCE_PATH}/mcp"`;
  return invalidToken ? `Bearer error="invalid_token", error_description="the access token is unknown, expired or revoked", ${metadata}` : `Bearer ${metadata}`;
}
