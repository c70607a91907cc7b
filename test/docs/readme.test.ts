/**
 * The README documents everything an operator or client can touch: every CLI command, every setting
 * (flag and PHYSPAY_* variable), every endpoint, every error status and every MCP tool.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { createProgram } from '../../build/cli/main.ts';
import { SETTINGS } from '../../build/cli/settings.ts';
import { TOOL_NAMES } from '../../server/mcp/server.ts';
import { keyedOpenApi, openDataOpenApi } from '../../build/contract/openapi.ts';

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');

function commandNames(cmd: Command, prefix = ''): string[] {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return c.commands.length ? commandNames(c, `${name} `) : [name];
  });
}

describe('README documents', () => {
  const program = createProgram({ out() {}, err() {}, now: () => new Date(), isTty: false });

  it.each(commandNames(program))('the command `physpay %s`', (name) => {
    expect(readme).toContain(`physpay ${name}`);
  });

  it.each(Object.entries(SETTINGS).map(([k, s]) => [k, s.flags.split(' ')[0]!, s.env]))('the setting %s (%s, %s)', (_k, flag, env) => {
    expect(readme).toContain(`\`${flag}\``);
    expect(readme).toContain(`\`${env}\``);
  });

  // Every option of every command (walked through commander, so options added outside settings.ts count
  // too): an option with a variable comes from the settings registry and has its row in the settings table
  // (`| \`--flag\` | \`PHYSPAY_X\` |`); one without is listed in the table of options without a variable.
  function allCommands(cmd: Command, prefix = ''): [string, Command][] {
    return cmd.commands.flatMap((c): [string, Command][] => [[`${prefix}${c.name()}`, c], ...allCommands(c, `${prefix}${c.name()} `)]);
  }
  const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const commandOptions = allCommands(program).flatMap(([name, c]) =>
    c.options.filter((o) => o.long !== '--help').map((o) => [`physpay ${name} ${o.long}`, o.long!, o.envVar ?? null] as const),
  );
  it.each(commandOptions)('the option %s with its variable (%s, %s)', (_where, flag, env) => {
    if (env) {
      expect(Object.values(SETTINGS).some((s) => s.flags.split(' ')[0] === flag && s.env === env), `${flag} (${env}) comes from settings.ts`).toBe(true);
      expect(readme).toMatch(new RegExp(`^\\| \`${escapeRe(flag)}\` \\| \`${env}\` \\|`, 'm'));
    } else {
      expect(readme, `${flag}: a row "| \`${flag}\` | none | ..." in the table of options without a variable`).toMatch(
        new RegExp(`^\\| \`${escapeRe(flag)}\` \\| none \\|`, 'm'),
      );
    }
  });

  it('does not claim that every option has a variable', () => {
    expect(readme).not.toMatch(/Every option can also be set/);
  });

  it('the Node.js version package.json requires, in every "Node.js >= X" it says', () => {
    const engines = (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const required = /^>=\s*(\d+(?:\.\d+)*)$/.exec(engines)![1]!;
    const said = [...readme.matchAll(/Node(?:\.js)? >= ?(\d+(?:\.\d+)*)/g)].map((m) => m[1]);
    expect(said.length).toBeGreaterThan(0);
    for (const v of said) expect(v).toBe(required);
  });

  it('the program version (physpay --version)', () => {
    expect(program.version()).toBe((JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version);
    expect(readme).toContain('physpay --version');
  });

  const keyedPaths = Object.keys(keyedOpenApi().paths as object).map((p) => `/api/v1${p}`);
  const openPaths = Object.keys(openDataOpenApi().paths as object).map((p) => `/data/api/v1${p}`);
  it.each([...keyedPaths, ...openPaths, '/mcp', '/.well-known/mcp.json', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/oauth/register', '/oauth/authorize', '/oauth/token', '/oauth/revoke', '/mcp?signin', '/healthz', '/readyz', '/metrics', '/api/v1/openapi.json', '/data/api/v1/openapi.json'])(
    'the endpoint %s',
    (path) => {
      expect(readme).toContain(path);
    },
  );

  it.each(TOOL_NAMES)('the MCP tool %s', (tool) => {
    expect(readme).toContain(`\`${tool}\``);
  });

  it('every error status of each interface', () => {
    const section = (title: string) => {
      const start = readme.indexOf(title);
      expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
      return readme.slice(start, readme.indexOf('\n## ', start + 1));
    };
    const keyed = section('## Keyed benchmark API');
    for (const s of ['400', '401', '403', '404', '429', '503']) expect(keyed, `keyed API status ${s}`).toMatch(new RegExp(`\\| ${s} \\|`));
    const open = section('### Serving the open data API');
    for (const s of ['304', '400', '404', '405', '429', '503']) expect(open, `open data status ${s}`).toContain(s);
    const mcp = section('## Tool server (MCP)');
    for (const s of ['405', '-32700']) expect(mcp, `tool server error ${s}`).toContain(s);
  });
});
