/**
 * The approval page (pure): an assistant asks to use physpay with the subscriber's API key. It names the
 * application (as it named itself) and the host the approval is sent back to, says what the access allows
 * and how long it lasts, and asks for the key. No script: a plain form that POSTs back to the same address.
 * Its CSP allows the form to be sent here and the browser to be redirected on to the client's origin only.
 */
import { esc } from '../../build/pages/html.ts';
import { pageCsp } from '../http/page-security.ts';
import { privatePageHead } from '../billing/welcome.ts';
import type { AuthorizeRequest } from './service.ts';
import { AUTHORIZE_PATH } from './metadata.ts';

const CSS = `
#api-key{width:100%;max-width:32rem;font:inherit;padding:.4rem}
button{font:inherit;padding:.4rem .9rem;margin:.25rem .5rem .25rem 0}
.who{border:2px solid var(--accent);padding:.5rem .75rem}
.problem{border-left:4px solid var(--ref);padding:.25rem .75rem}
.where{overflow-wrap:anywhere}`;

/** The host (and port, when not the default) of a redirect URI: where the approval goes. */
export function redirectHost(uri: string): string {
  return new URL(uri).host;
}

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `<input type="hidden" name="${name}" value="${esc(value)}">\n`);

export function approvalPage(publisher: string, r: AuthorizeRequest, csrfToken: string, problem: string | null): string {
  const host = redirectHost(r.redirect_uri);
  return `${privatePageHead('Connect an assistant', publisher, CSS)}
<body>
<main>
<h1>Connect an assistant to your ${esc(publisher)} account</h1>
<section class="who" aria-labelledby="who-heading">
<h2 id="who-heading">Who is asking</h2>
<p><strong>${esc(r.client.client_name)}</strong> asks to use the ${esc(publisher)} tool server with your API key.
Your approval is sent to <strong class="where">${esc(host)}</strong>.</p>
<p>The name is the one the application gave itself; the address is where it receives your approval. Approve only if you started this from an assistant you use and the address is that assistant's.</p>
</section>
<h2>What it can do</h2>
<ul>
<li>Call the tool server's tools as you, with your plan's features; its calls count toward your plan's daily and monthly limits.</li>
<li>It never sees your key: it receives a token that lasts one hour and renews itself while the assistant keeps using it (up to 30 days without use).</li>
<li>To end its access, rotate or revoke your key on your <a href="/account">account page</a>: every token given for that key stops working at once.</li>
</ul>
${problem ? `<p class="problem" role="alert" id="problem">${esc(problem)}</p>\n` : ''}<form method="post" action="${AUTHORIZE_PATH}">
${hidden('response_type', 'code')}${hidden('client_id', r.client.client_id)}${hidden('redirect_uri', r.redirect_uri)}${hidden('state', r.state)}${hidden('code_challenge', r.code_challenge)}${hidden('code_challenge_method', 'S256')}${hidden('resource', r.resource)}${hidden('scope', r.scope)}${hidden('csrf', csrfToken)}<p><label for="api-key">Your API key</label><br>
<input id="api-key" name="api_key" type="password" autocomplete="off" spellcheck="false" placeholder="pcb_live_..."${problem ? ' aria-describedby="problem" aria-invalid="true"' : ''} required></p>
<p><button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button></p>
</form>
</main>
</body>
</html>
`;
}

/** A request that cannot be answered to the client (no trusted redirect URI): said on a physpay page. */
export function errorPage(publisher: string, message: string): string {
  return `${privatePageHead('Cannot connect the assistant', publisher, '')}
<body>
<main>
<h1>Cannot connect the assistant</h1>
<p role="alert">${esc(message)}</p>
</main>
</body>
</html>
`;
}

/** The page's CSP: its own, with the form allowed to redirect on to the client's origin (browsers check form-action on redirects). */
export function approvalCsp(html: string, redirectUri: string | null): string {
  const csp = pageCsp(html);
  return redirectUri ? csp.replace("form-action 'self'", `form-action 'self' ${new URL(redirectUri).origin}`) : csp;
}
