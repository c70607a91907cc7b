// The commands `npm start` runs (scripts/start.mjs), as data: demo data, a build whose links and citations
// name the port it is served on, then the server. Kept apart so a test can read them without running them.
/** @param {number} port */
export function startSteps(port) {
  const base = `http://127.0.0.1:${port}`;
  return [
    ['demo', '--db', 'dist-data/demo.db', '--force'],
    // canonical links, citations and feed URLs name this server, not the default http://localhost:8080
    ['build', '--db', 'dist-data/demo.db', '--out', 'dist-data', '--force', '--base-url', base],
    ['serve', '--data', 'dist-data', '--service-db', 'dist-data/service.db', '--port', String(port)],
  ];
}
