/**
 * Where the number labels under a distribution chart go (pure), so that none overlaps another: one JavaScript
 * source, used by the pages' charts (chart.ts, turned into the node functions below with `new Function`) and
 * inlined as is by the tool server's chart view (server/mcp/apps/pay-chart-view.ts), so both lay labels out
 * the same way.
 *
 * labelWidth(text, strong) estimates a label's width in chart units (viewBox 400) at the largest chart text
 * (15 units on phones; layout.ts): 0.66 em for a digit, letter or "$", 0.36 em for ",", ".", ":" and a space,
 * 10% more in bold. DejaVu Sans, Chromium's sans-serif on Debian, draws digits at 0.636 em, so the estimate
 * is a little wide on purpose: a label is drawn inside the room reserved for it.
 *
 * placeLabels(specs, width, gap): each spec {text, x, side, row, strong}, in order of importance. A label
 * reserves [x - w, x] (side "left": it ends at its figure) or [x, x + w] (side "right": it starts there),
 * slid back inside [0, width] when it would leave the chart (never flipped to the figure's other side, which
 * is what overlapped "P25 $249,13P75 $334,456"), on its own row or, when that room is taken, on the first
 * row below where it is free (`gap` units apart). Returns per spec {row, x, anchor}: draw it at x with
 * text-anchor `anchor` (end for "left", start for "right"), so the text, narrower than its estimate, stays
 * inside its room.
 */

/** The source: defines `labelWidth(text, strong)` and `placeLabels(specs, width, gap)`; ES5, no template literals. */
export const LABEL_LAYOUT_JS = String.raw`function labelWidth(text,strong){var w=0;for(var i=0;i<text.length;i++)w+=/[,.:; ]/.test(text.charAt(i))?0.36:0.66;return Math.round(w*15*(strong?1.1:1)*100)/100}
function placeLabels(specs,width,gap){var placed=[],out=[];for(var i=0;i<specs.length;i++){var s=specs[i],w=labelWidth(s.text,s.strong),left=s.side==='left'?s.x-w:s.x;
left=Math.max(0,Math.min(left,width-w));var row=s.row;for(;;){var free=true;for(var j=0;j<placed.length;j++){var p=placed[j];if(p.row===row&&left<p.right+gap&&p.left<left+w+gap){free=false;break}}if(free)break;row++}
placed.push({row:row,left:left,right:left+w});out.push({row:row,x:Math.round((s.side==='left'?left+w:left)*100)/100,anchor:s.side==='left'?'end':'start'})}return out}
`;

export interface LabelSpec {
  text: string;
  /** the figure's x in chart units */
  x: number;
  /** which side of its figure the label sits on */
  side: 'left' | 'right';
  /** the row it asks for (0 = first row under the chart) */
  row: number;
  strong?: boolean;
}

export interface PlacedLabel {
  row: number;
  x: number;
  anchor: 'start' | 'end';
}

const compiled = new Function(`${LABEL_LAYOUT_JS}\nreturn { labelWidth: labelWidth, placeLabels: placeLabels };`)() as {
  labelWidth: (text: string, strong?: boolean) => number;
  placeLabels: (specs: LabelSpec[], width: number, gap: number) => PlacedLabel[];
};

export const labelWidth: (text: string, strong?: boolean) => number = compiled.labelWidth;
export const placeLabels: (specs: LabelSpec[], width: number, gap: number) => PlacedLabel[] = compiled.placeLabels;
