import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { makeGoldenDb, goldenBuild } from '../test/helpers/golden-build.ts';
const dir = '/tmp/ov';
if (!existsSync(join(dir, 'dist'))) goldenBuild(makeGoldenDb(dir), join(dir, 'dist'));
const cur = join(dir, 'dist', 'current');
const pub = join(cur, 'public');
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const pages = walk(pub).filter((p) => p.endsWith('.html'));
const limit = Number(process.argv[2] ?? 100000);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] });
for (const width of [390, 1280]) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  const page = await ctx.newPage();
  let bad = 0; const examples: string[] = [];
  for (const p of pages.slice(0, limit)) {
    await page.goto('file://' + p);
    const o = await page.evaluate(`(() => { const out = []; for (const svg of document.querySelectorAll('svg')) { const ts = [...svg.querySelectorAll('text')].map(t => [t.getBoundingClientRect(), t.textContent]); for (let i=0;i<ts.length;i++) for (let j=i+1;j<ts.length;j++) { const [a,at]=ts[i],[b,bt]=ts[j]; if (a.width&&b.width&&a.left < b.right-0.5 && b.left < a.right-0.5 && a.top < b.bottom-0.5 && b.top < a.bottom-0.5) out.push((svg.getAttribute('data-chart')||svg.getAttribute('class'))+': '+at+' | '+bt); } } return out; })()`) as string[];
    if (o.length) { bad++; if (examples.length < 12) examples.push(p.slice(pub.length) + ' -> ' + o[0]); }
  }
  console.log(width, 'pages with overlaps', bad, 'of', Math.min(limit, pages.length));
  for (const e of examples) console.log('  ', e);
  await ctx.close();
}
await browser.close();
