/*
 * Renders the OpenAPI document named by #swagger-ui[data-spec] with Swagger UI (swagger-ui-bundle.js, loaded
 * before this file), and shows each operation's x-codeSamples (a curl line) above its parameters, with
 * Swagger UI's own copy button. The curl lines name http://localhost:8080 (data-sample-origin); here they
 * name the origin this page was loaded from, which is the server that answers them.
 */
(function () {
  'use strict';
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var sampleOrigin = root.getAttribute('data-sample-origin') || '';

  function here(source) {
    return sampleOrigin ? source.split('"' + sampleOrigin + '/').join('"' + window.location.origin + '/') : source;
  }

  function CodeSamplesPlugin() {
    return {
      wrapComponents: {
        // A licence named by an SPDX LicenseRef (the keyed API's proprietary terms) has no page at spdx.org:
        // show its name as text instead of Swagger UI's link there.
        OAS31License: function (Original, system) {
          return function LicenseName(props) {
            var s = system.specSelectors;
            if (s.selectLicenseUrlField() || String(s.selectLicenseIdentifierField() || '').indexOf('LicenseRef-') !== 0) return system.React.createElement(Original, props);
            return system.React.createElement('div', { className: 'info__license' }, system.React.createElement('span', null, s.selectLicenseNameField()));
          };
        },
        parameters: function (Original, system) {
          return function CodeSamplesAndParameters(props) {
            var h = system.React.createElement;
            var op = props.operation;
            var samples = op && op.get ? op.get('x-codeSamples') : null;
            var original = h(Original, props);
            if (!samples || !samples.size) return original;
            var HighlightCode = system.getComponent('HighlightCode', true);
            var blocks = samples.toArray().map(function (s, i) {
              return h('div', { className: 'code-sample', 'data-label': String(s.get('label') || s.get('lang') || ''), key: i },
                h(HighlightCode, { getComponent: system.getComponent, language: 'bash', canCopy: true }, here(String(s.get('source') || ''))));
            });
            return h('div', null,
              h('div', { className: 'opblock-section-header' }, h('div', { className: 'tab-header' }, h('h4', { className: 'opblock-title' }, 'Example request'))),
              h('div', { className: 'code-samples' }, blocks),
              original);
          };
        },
      },
    };
  }

  // Swagger UI's server picker has no accessible name: name every select that lacks an aria-label (axe select-name).
  new MutationObserver(function () {
    var selects = root.querySelectorAll('select:not([aria-label])');
    for (var i = 0; i < selects.length; i++) {
      var s = selects[i];
      // (the server picker sits in an empty <label>: it has a label element but no name)
      s.setAttribute('aria-label', s.id === 'servers' ? 'Server' : (s.getAttribute('name') || 'Choose a value'));
    }
  }).observe(root, { childList: true, subtree: true });

  window.SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    domNode: root,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [CodeSamplesPlugin],
    layout: 'BaseLayout',
    deepLinking: false, // deep links put a link inside each operation's toggle button (nested interactive controls)
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    requestSnippetsEnabled: true,
    supportedSubmitMethods: ['get', 'head'],
    persistAuthorization: false,
    validatorUrl: null,
  });
})();
