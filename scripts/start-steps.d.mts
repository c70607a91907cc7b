/** The commands `npm start` runs for a port: each a physpay argument list (start-steps.mjs). */
export function startSteps(port: number): string[][];
