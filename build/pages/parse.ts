/**
 * A small strict HTML reader (pure) for the pages this build writes. It is stricter than browsers on
 * purpose, so that a page that passes is unambiguous to every parser:
 *
 *  - every non-void element is closed, in order; void elements (meta, link, br, ...) have no end tag;
 *    `/>` only on void elements and inside <svg>;
 *  - every attribute has a double-quoted value; no attribute twice on one element;
 *  - no stray `<` in text or attribute values, and every `&` starts a character reference;
 *  - <script> and <style> are raw text up to their end tag;
 *  - one <!DOCTYPE html> first, one <html> root; ids are unique and aria-labelledby / aria-describedby
 *    name existing ids.
 *
 * The build validates every page with it before publishing; the tests read figures from its tree.
 */

export interface HtmlElement {
  type: 'element';
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
  parent: HtmlElement | null;
  line: number;
}
export interface HtmlText {
  type: 'text';
  /** decoded text */
  text: string;
}
export type HtmlNode = HtmlElement | HtmlText;

export const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
const NAMED_REFS: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ndash: '\u2013', mdash: '\u2014', times: '\u00d7', hellip: '\u2026', middot: '\u00b7', rarr: '\u2192', larr: '\u2190', minus: '\u2212', le: '\u2264', ge: '\u2265', ldquo: '\u201c', rdquo: '\u201d', lsquo: '\u2018', rsquo: '\u2019' };

export interface ParseResult {
  root: HtmlElement | null;
  errors: string[];
}

/** Decode character references of already-checked text (unknown names stay as they are). */
function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g, (m, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return NAMED_REFS[ref] ?? m;
  });
}

/** Problems with `&` in a stretch of text or an attribute value. */
function checkRefs(s: string, where: string, line: number, errors: string[]): void {
  for (let i = s.indexOf('&'); i >= 0; i = s.indexOf('&', i + 1)) {
    const m = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/.exec(s.slice(i, i + 40));
    if (!m) errors.push(`line ${line}: bare "&" in ${where}`);
    else if (!m[1]!.startsWith('#') && !(m[1]! in NAMED_REFS)) errors.push(`line ${line}: unknown character reference &${m[1]}; in ${where}`);
  }
}

const TAG_NAME = /[a-zA-Z][a-zA-Z0-9-]*/y;
const END_TAG = /<\/([a-zA-Z][a-zA-Z0-9-]*)\s*>/y;
const WS = /\s*/y;
const ATTR_NAME = /[a-zA-Z_:][a-zA-Z0-9_:.-]*/y;
const DOCTYPE = /<!DOCTYPE html>/iy;

function stickyAt(re: RegExp, src: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(src);
}

export function parseHtml(src: string): ParseResult {
  const errors: string[] = [];
  const doc: HtmlElement = { type: 'element', tag: '#document', attrs: {}, children: [], parent: null, line: 1 };
  let cur = doc;
  let svgDepth = 0; // open <svg> elements around the current position
  let i = 0;
  let line = 1;
  let sawDoctype = false;
  let sawRoot = false;
  const advance = (to: number) => {
    for (let k = src.indexOf('\n', i); k >= 0 && k < to; k = src.indexOf('\n', k + 1)) line++;
    i = to;
  };
  const pushText = (raw: string) => {
    if (!raw) return;
    if (cur === doc) {
      if (raw.trim()) errors.push(`line ${line}: text outside the root element`);
      return;
    }
    if (raw.includes('&')) {
      checkRefs(raw, 'text', line, errors);
      cur.children.push({ type: 'text', text: decode(raw) });
    } else cur.children.push({ type: 'text', text: raw });
  };

  while (i < src.length && errors.length < 50) {
    const lt = src.indexOf('<', i);
    if (lt < 0) {
      pushText(src.slice(i));
      advance(src.length);
      break;
    }
    pushText(src.slice(i, lt));
    advance(lt);
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      if (end < 0) {
        errors.push(`line ${line}: unclosed comment`);
        break;
      }
      advance(end + 3);
      continue;
    }
    if (src.startsWith('<!', i)) {
      const m = stickyAt(DOCTYPE, src, i);
      if (!m || sawDoctype || sawRoot || doc.children.length) errors.push(`line ${line}: unexpected declaration ${src.slice(i, i + 20)}`);
      sawDoctype = true;
      advance(i + (m ? m[0].length : 2));
      continue;
    }
    if (src[i + 1] === '/') {
      const m = stickyAt(END_TAG, src, i);
      if (!m) {
        errors.push(`line ${line}: malformed end tag ${JSON.stringify(src.slice(i, i + 20))}`);
        advance(i + 2);
        continue;
      }
      const tag = m[1]!;
      if (VOID_ELEMENTS.has(tag.toLowerCase()) && svgDepth === 0) errors.push(`line ${line}: end tag of void element </${tag}>`);
      else if (cur.tag !== tag) errors.push(`line ${line}: </${tag}> closes <${cur.tag}> (opened on line ${cur.line})`);
      else {
        if (tag === 'svg') svgDepth--;
        cur = cur.parent!;
      }
      advance(i + m[0].length);
      continue;
    }
    // start tag
    const nm = stickyAt(TAG_NAME, src, i + 1);
    if (!nm) {
      errors.push(`line ${line}: stray "<"`);
      advance(i + 1);
      continue;
    }
    const tag = nm[0];
    const startLine = line;
    let j = i + 1 + tag.length;
    const attrsOf: Record<string, string> = {};
    let selfClosing = false;
    let ok = false;
    for (;;) {
      const ws = stickyAt(WS, src, j)![0];
      j += ws.length;
      if (src[j] === '>') {
        j++;
        ok = true;
        break;
      }
      if (src[j] === '/' && src[j + 1] === '>') {
        selfClosing = true;
        j += 2;
        ok = true;
        break;
      }
      if (!ws) {
        errors.push(`line ${startLine}: attributes of <${tag}> must be separated by white space`);
        break;
      }
      const am = stickyAt(ATTR_NAME, src, j);
      if (!am) {
        errors.push(`line ${startLine}: malformed attribute in <${tag}> at ${JSON.stringify(src.slice(j, j + 20))}`);
        break;
      }
      const name = am[0];
      j += name.length;
      if (src[j] !== '=' || src[j + 1] !== '"') {
        errors.push(`line ${startLine}: attribute ${name} of <${tag}> has no double-quoted value`);
        break;
      }
      const close = src.indexOf('"', j + 2);
      if (close < 0) {
        errors.push(`line ${startLine}: unterminated value of attribute ${name}`);
        break;
      }
      const raw = src.slice(j + 2, close);
      if (raw.includes('<')) errors.push(`line ${startLine}: "<" in the value of attribute ${name} of <${tag}>`);
      if (name in attrsOf) errors.push(`line ${startLine}: attribute ${name} twice on <${tag}>`);
      if (raw.includes('&')) {
        checkRefs(raw, `attribute ${name} of <${tag}>`, startLine, errors);
        attrsOf[name] = decode(raw);
      } else attrsOf[name] = raw;
      j = close + 1;
    }
    if (!ok) {
      advance(Math.max(j, i + 1));
      continue;
    }
    const el: HtmlElement = { type: 'element', tag, attrs: attrsOf, children: [], parent: cur, line: startLine };
    if (cur === doc) {
      if (sawRoot) errors.push(`line ${startLine}: second root element <${tag}>`);
      if (tag !== 'html') errors.push(`line ${startLine}: root element is <${tag}>, not <html>`);
      if (!sawDoctype) errors.push(`line ${startLine}: no <!DOCTYPE html> before the root element`);
      sawRoot = true;
    }
    cur.children.push(el);
    advance(j);
    const isVoid = svgDepth === 0 && VOID_ELEMENTS.has(tag.toLowerCase());
    if (selfClosing && !isVoid && svgDepth === 0) errors.push(`line ${startLine}: <${tag} /> is not a void element (self-closing is ignored by HTML parsers)`);
    if (isVoid || selfClosing) continue;
    if (RAW_TEXT.has(tag)) {
      const endTag = `</${tag}>`;
      const end = src.indexOf(endTag, i);
      if (end < 0) {
        errors.push(`line ${startLine}: <${tag}> is never closed`);
        break;
      }
      el.children.push({ type: 'text', text: src.slice(i, end) });
      advance(end + endTag.length);
      continue;
    }
    if (tag === 'svg') svgDepth++;
    cur = el;
  }
  if (cur !== doc && errors.length < 50) errors.push(`end of file: <${cur.tag}> (line ${cur.line}) is never closed`);
  if (!sawRoot) errors.push('no <html> root element');
  const root = (doc.children.find((c) => c.type === 'element') as HtmlElement | undefined) ?? null;
  if (root) {
    root.parent = null;
    checkIds(root, errors);
  }
  return { root, errors };
}

function checkIds(root: HtmlElement, errors: string[]): void {
  const ids = new Set<string>();
  const refs: { line: number; name: string; id: string }[] = [];
  for (const el of elements(root)) {
    const id = el.attrs.id;
    if (id !== undefined) {
      if (ids.has(id)) errors.push(`line ${el.line}: id "${id}" used twice`);
      ids.add(id);
    }
    for (const a of ['aria-labelledby', 'aria-describedby']) {
      const v = el.attrs[a];
      if (v !== undefined) for (const ref of v.split(/\s+/).filter(Boolean)) refs.push({ line: el.line, name: a, id: ref });
    }
  }
  for (const r of refs) if (!ids.has(r.id)) errors.push(`line ${r.line}: ${r.name} names a missing id "${r.id}"`);
}

/** Every element of a tree, depth first, in document order. */
export function* elements(root: HtmlElement): Generator<HtmlElement> {
  const stack: HtmlElement[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    yield el;
    for (let k = el.children.length - 1; k >= 0; k--) {
      const c = el.children[k]!;
      if (c.type === 'element') stack.push(c);
    }
  }
}

/** The decoded text content of an element (script and style included, as browsers do). */
export function textOf(el: HtmlElement): string {
  let out = '';
  for (const c of el.children) out += c.type === 'text' ? c.text : textOf(c);
  return out;
}

/** The nearest ancestor-or-self with attribute `name`. */
export function closest(el: HtmlElement, name: string): HtmlElement | null {
  for (let e: HtmlElement | null = el; e; e = e.parent) if (name in e.attrs) return e;
  return null;
}
