/** The seven tools, in the order tools/list gives them. */
import type { ToolDefinition } from '../tool-definition.ts';
import { listSpecialtiesTool } from './list-specialties.ts';
import { getSpecialtyPayTool } from './get-specialty-pay.ts';
import { compareSpecialtiesTool } from './compare-specialties.ts';
import { getWrvuRateTool } from './get-wrvu-rate.ts';
import { getResidentPayTool } from './get-resident-pay.ts';
import { evaluateCompensationTool } from './evaluate-compensation.ts';
import { evaluateOfferTool } from './evaluate-offer.ts';

export const TOOLS: readonly ToolDefinition[] = [
  listSpecialtiesTool, getSpecialtyPayTool, compareSpecialtiesTool, getWrvuRateTool, getResidentPayTool, evaluateCompensationTool, evaluateOfferTool,
] as unknown as readonly ToolDefinition[];

export const TOOL_NAMES = TOOLS.map((t) => t.name);

const byName = new Map(TOOLS.map((t) => [t.name, t]));
export const toolNamed = (name: unknown): ToolDefinition | undefined => (typeof name === 'string' ? byName.get(name) : undefined);
export const isToolName = (name: unknown): boolean => toolNamed(name) !== undefined;
