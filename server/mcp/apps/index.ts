/**
 * MCP Apps (the ext-apps extension): the ui:// resources the tools name in their `_meta.ui.resourceUri`.
 * One for now: the pay chart of get_specialty_pay, evaluate_compensation and evaluate_offer (pay-chart.ts).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { RESOURCE_MIME_TYPE, registerAppResource, type McpUiAppResourceConfig } from '@modelcontextprotocol/ext-apps/server';
import type { ToolDeps } from '../tool-result.ts';
import { PAY_CHART_URI, payChartHtml } from './pay-chart.ts';

export { PAY_CHART_URI } from './pay-chart.ts';

/** The tool `_meta` that points a host at the pay chart (with the legacy flat key older hosts read). */
export const PAY_CHART_TOOL_META = { ui: { resourceUri: PAY_CHART_URI }, 'ui/resourceUri': PAY_CHART_URI } as const;

/** The view's resource metadata: no outside origins at all (empty CSP lists), and a border around it. */
export const PAY_CHART_UI_META = { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } };

const html = payChartHtml();

/** Register the ui:// resources on a server (the HTML does not depend on the build: `deps` is unused). */
export function registerApps(server: McpServer, _deps?: ToolDeps): void {
  const config: McpUiAppResourceConfig = {
    title: 'Pay distribution chart',
    description: 'Inline chart (MCP Apps) of a get_specialty_pay, evaluate_compensation or evaluate_offer result: the P10-P90 whisker, P25-P75 box, median, the US median and the position of a given pay; for an offer, each part against its published range. Self-contained HTML, no outside requests.',
    _meta: PAY_CHART_UI_META,
  };
  server.server.registerCapabilities({ resources: { listChanged: false } }); // a fresh server per request: the list never changes
  registerAppResource(server, 'pay-chart', PAY_CHART_URI, config, async () => ({
    contents: [{ uri: PAY_CHART_URI, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: PAY_CHART_UI_META }],
  }));
}
