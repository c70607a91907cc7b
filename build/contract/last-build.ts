/**
 * `<out>/last-build.json`: the outcome of the last `physpay build` attempt, for monitoring (the server's
 * /metrics reads it). Written by every attempt, whatever its outcome, next to `current` (never inside a
 * build folder), atomically: a reader sees the previous attempt's file or this one's, never half of one.
 */
import { z } from 'zod';

export const LAST_BUILD_FILE = 'last-build.json';

/** published: a new current build; unchanged: same content as the current build, nothing published;
 * pinned: the current build is pinned, nothing published; refused: the sanity diff or another publishing
 * rule refused it; failed: an error stopped it. */
export const BUILD_OUTCOMES = ['published', 'unchanged', 'pinned', 'refused', 'failed'] as const;
export type BuildOutcome = (typeof BUILD_OUTCOMES)[number];

const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);

export const LastBuild = z
  .object({
    outcome: z.enum(BUILD_OUTCOMES).describe('published, unchanged, pinned, refused or failed'),
    build_id: z.string().nullable().describe('the build published (published), or the current build whose content this run matched (unchanged); null otherwise'),
    started_at: instant.describe('when the attempt started (UTC)'),
    finished_at: instant.describe('when it ended (UTC)'),
    duration_ms: z.number().int().nonnegative(),
    exit_code: z.number().int().nonnegative().describe('the exit code of physpay build'),
    message: z.string().describe('the line physpay build printed for this outcome (the error for refused and failed)'),
  })
  .strict();
export type LastBuild = z.infer<typeof LastBuild>;
