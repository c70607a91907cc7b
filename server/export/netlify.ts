/**
 * `_headers` and `_redirects` in the format Netlify and Cloudflare Pages read at the publish root (pure).
 *
 * _headers: the headers every file and redirect shares under one `/*` rule first, then one rule per URL
 * with the rest (Content-Type, ETag, X-PhysPay-Build). Hosts combine every rule that matches a path
 * (Cloudflare Pages joins the values of a header given by two rules with a comma), so no header is in both. _redirects: one
 * `/from /to 301` line per alias. Paths are percent-encoded where they are not plain (`:` and `*` too:
 * placeholders and splats there).
 */
import { encodePath, fileHeaders, sharedHeaders, type ExportPlan, type HeaderList } from './plan.ts';

function rule(path: string, headers: HeaderList): string {
  return `${path}\n${headers.map(([name, value]) => `  ${name}: ${value}\n`).join('')}`;
}

export function headersFile(plan: ExportPlan): string {
  const shared = sharedHeaders(plan);
  const isShared = (name: string, value: string) => shared.some(([n, v]) => n === name && v === value);
  return [
    '# physpay static export: the headers physpay serve sends with each URL (generated; do not edit)\n',
    ...(shared.length ? [rule('/*', shared)] : []),
    ...plan.files.map((f) => rule(encodePath(f.urlPath), fileHeaders(f).filter(([n, v]) => !isShared(n, v)))),
  ].join('\n');
}

export function redirectsFile(plan: ExportPlan): string {
  const lines = plan.redirects.map((r) => `${encodePath(r.from)} ${encodePath(r.to)} 301\n`);
  return `# physpay static export: known aliases -> canonical URLs (generated; do not edit)\n${lines.join('')}`;
}
