/**
 * Years of experience and the published figures: the open data publishes no breakdown by experience, so every
 * position the tool server and the offer check give is among all physicians of the specialty (and state),
 * whatever their years in practice. The answers say so, in their structured fields and in their text, so
 * that an experience the asker gave is never silently ignored.
 */
import { z } from 'zod';

export const ExperienceLevels = z
  .literal('all')
  .describe('the published figures pool every experience level (years in practice): no breakdown by experience is published, so the position is among all physicians of the specialty, not those with the same years');

/** The sentence the answers' texts carry. */
export const ALL_EXPERIENCE_TEXT = 'The figures cover all experience levels: no breakdown by years in practice is published, so this is not a comparison with physicians of the same experience.';
