// The /account page's script (inlined into the page; its CSP allows it by hash). The API key stays in this
// browser: it is kept in sessionStorage (or localStorage when "remember" is ticked) and sent only in the
// X-API-Key header of this site's /api/v1/me/* requests, never in an address. Plain DOM, no library.
'use strict';
(function () {
  var STORE_KEY = 'physpay.apiKey';
  var $ = function (id) { return document.getElementById(id); };
  var form = $('key-form');
  var input = $('key-input');
  var remember = $('key-remember');
  var account = $('account');
  var message = $('message');
  var fresh = $('new-key');

  function storedKey() {
    try { return sessionStorage.getItem(STORE_KEY) || localStorage.getItem(STORE_KEY) || ''; } catch (e) { return ''; }
  }
  function keep(key, persist) {
    try {
      sessionStorage.removeItem(STORE_KEY);
      localStorage.removeItem(STORE_KEY);
      if (key) (persist ? localStorage : sessionStorage).setItem(STORE_KEY, key);
    } catch (e) { /* storage refused (private mode): the key lives in this page only */ }
  }
  function remembered() {
    try { return Boolean(localStorage.getItem(STORE_KEY)); } catch (e) { return false; }
  }
  var current = storedKey();

  function say(text, isError) {
    message.textContent = text;
    message.className = isError ? 'notice' : '';
    message.hidden = !text;
  }
  function fmt(n) { return Number(n).toLocaleString('en-US'); }
  function when(unixSeconds) {
    var d = new Date(unixSeconds * 1000);
    return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) + ' (' + d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC)';
  }
  var STATUS_TEXT = {
    active: 'active: requests are served',
    past_due: 'past due: the last payment failed; requests are refused until it is paid',
    suspended: 'suspended: requests are refused',
    canceled: 'canceled: requests are refused'
  };

  async function api(method, path) {
    var r = await fetch('/api/v1' + path, { method: method, headers: { 'X-API-Key': current }, cache: 'no-store', credentials: 'omit' });
    var body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    return { status: r.status, body: body };
  }

  function problem(r) {
    if (r.status === 401) return 'This key is not valid: it may be mistyped, or it was replaced or revoked.';
    if (r.status === 503) return 'The service is busy or starting; try again in a few seconds.';
    return (r.body && r.body.error) || ('Unexpected answer (HTTP ' + r.status + ').');
  }

  function setText(id, text) { $(id).textContent = text; }

  function showUsage(u) {
    setText('plan', u.plan_tier.charAt(0).toUpperCase() + u.plan_tier.slice(1));
    setText('status', STATUS_TEXT[u.subscription_status] || u.subscription_status);
    setText('key-prefix', u.key_prefix + '\u2026');
    setText('today', fmt(u.usage.requests_today) + ' of ' + fmt(u.usage.daily_limit) + ' (' + fmt(u.usage.remaining_daily) + ' left)');
    setText('month', fmt(u.usage.requests_this_month) + ' of ' + fmt(u.usage.monthly_limit) + ' (' + fmt(u.usage.remaining_monthly) + ' left)');
    setText('daily-reset', when(u.usage.daily_reset));
    setText('monthly-reset', when(u.usage.monthly_reset));
  }

  var SVG = 'http://www.w3.org/2000/svg';
  function el(name, attrs, text) {
    var n = document.createElementNS(SVG, name);
    for (var k in attrs) n.setAttribute(k, String(attrs[k]));
    if (text !== undefined) n.textContent = text;
    return n;
  }
  /** A round axis maximum at or above `n` (1, 2, 5 times a power of ten). */
  function niceMax(n) {
    if (n <= 5) return 5;
    var p = Math.pow(10, Math.floor(Math.log10(n)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * p >= n) return steps[i] * p;
    return 10 * p;
  }

  function showHistory(h) {
    var chart = $('chart');
    while (chart.firstChild) chart.removeChild(chart.firstChild);
    var days = h.days;
    var peak = days.reduce(function (m, d) { return d.requests > m.requests ? d : m; }, days[0]);
    var top = niceMax(peak.requests);
    // drawn at the width it is shown at (320 to 720 px), so its labels stay readable on a phone
    var W = Math.max(320, Math.min(720, Math.round(chart.clientWidth || 720))), H = 220, L = 44, R = 8, T = 12, B = 28;
    var bw = (W - L - R) / days.length;
    var svg = el('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-labelledby': 'chart-title', class: 'usage-chart' });
    svg.appendChild(el('title', { id: 'chart-title' }, 'Requests per day, ' + h.from + ' to ' + h.to + ': ' + fmt(h.total) + ' in all; busiest day ' + peak.date + ' with ' + fmt(peak.requests)));
    [0, top / 2, top].filter(function (v) { return v === Math.round(v); }).forEach(function (v) {
      var y = T + (H - T - B) * (1 - v / top);
      svg.appendChild(el('line', { x1: L, x2: W - R, y1: y, y2: y, stroke: '#d0d7de', 'stroke-width': 1 }));
      svg.appendChild(el('text', { x: L - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#57606a' }, fmt(v)));
    });
    days.forEach(function (d, i) {
      var hgt = (H - T - B) * d.requests / top;
      var bar = el('rect', { x: L + i * bw + bw * 0.15, y: T + (H - T - B) - hgt, width: Math.max(1, bw * 0.7), height: Math.max(d.requests > 0 ? 1 : 0, hgt), fill: '#3b6fb6', 'data-date': d.date, 'data-requests': d.requests });
      bar.appendChild(el('title', {}, d.date + ': ' + fmt(d.requests) + ' request' + (d.requests === 1 ? '' : 's')));
      svg.appendChild(bar);
    });
    [0, days.length - 1].forEach(function (i, k) {
      svg.appendChild(el('text', { x: k === 0 ? L : W - R, y: H - 8, 'text-anchor': k === 0 ? 'start' : 'end', 'font-size': 12, fill: '#57606a' }, days[i].date));
    });
    chart.appendChild(svg);
    setText('history-total', fmt(h.total) + ' requests in the last ' + days.length + ' days (daily quota ' + fmt(h.daily_limit) + ').');
    var body = $('history-rows');
    while (body.firstChild) body.removeChild(body.firstChild);
    days.slice().reverse().forEach(function (d) {
      var tr = document.createElement('tr');
      var a = document.createElement('td'); a.textContent = d.date;
      var b = document.createElement('td'); b.textContent = fmt(d.requests);
      tr.appendChild(a); tr.appendChild(b); body.appendChild(tr);
    });
  }

  function showAssistants(a) {
    var list = $('assistants');
    while (list.firstChild) list.removeChild(list.firstChild);
    $('assistants-none').hidden = a.assistants.length > 0;
    a.assistants.forEach(function (x) {
      var li = document.createElement('li');
      var name = document.createElement('strong');
      name.textContent = x.name;
      li.appendChild(name);
      li.appendChild(document.createTextNode(' (returns to ' + x.redirect_hosts.join(', ') + '): last signed in ' +
        when(Date.parse(x.last_refreshed_at) / 1000) + '; its access ends ' + when(Date.parse(x.expires_at) / 1000) + ' unless it signs in again. '));
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Disconnect';
      b.setAttribute('aria-label', 'Disconnect ' + x.name);
      b.addEventListener('click', function () { void disconnect(x); });
      li.appendChild(b);
      list.appendChild(li);
    });
  }

  async function disconnect(x) {
    if (!window.confirm('Disconnect ' + x.name + '? It stops working with your key at once; to use it again, approve it again.')) return;
    var r;
    try { r = await api('POST', '/me/assistants/disconnect?id=' + encodeURIComponent(x.id)); } catch (e) { say('The service could not be reached; nothing was changed.', true); return; }
    if (r.status !== 200 && r.status !== 404) { if (r.status === 401) forget(); say(problem(r), true); return; }
    var a = await api('GET', '/me/assistants');
    if (a.status === 200) showAssistants(a.body);
    say(x.name + ' was disconnected.', false);
  }

  async function load() {
    say('Loading\u2026', false);
    try {
      var u = await api('GET', '/me/usage');
      if (u.status !== 200) { if (u.status === 401) forget(); say(problem(u), true); return; }
      var h = await api('GET', '/me/usage/history?days=90');
      if (h.status !== 200) { say(problem(h), true); return; }
      form.hidden = true;
      account.hidden = false; // shown first: the chart is drawn at the width it gets
      getKey(false); // "No key yet?" is for visitors without one
      showUsage(u.body);
      showHistory(h.body);
      var a = await api('GET', '/me/assistants');
      if (a.status === 200) showAssistants(a.body);
      say('', false);
    } catch (e) {
      say('The service could not be reached; check your connection and try again.', true);
    }
  }

  function getKey(show) {
    var section = document.getElementById('get-key');
    if (section) section.hidden = !show;
  }

  function forget() {
    current = '';
    keep('', false);
    getKey(true);
    account.hidden = true;
    fresh.hidden = true;
    form.hidden = false;
    input.value = '';
  }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var key = input.value.trim();
    if (!/^pcb_(live|test)_[A-Za-z0-9_-]{8,}$/.test(key)) { say('That does not look like an API key: keys start with pcb_live_.', true); return; }
    current = key;
    keep(key, remember.checked);
    input.value = '';
    void load();
  });

  $('forget').addEventListener('click', function () { forget(); say('The key was removed from this browser.', false); });

  $('rotate').addEventListener('click', async function () {
    if (!window.confirm('Replace your API key? The current key stops working at once: every program that uses it needs the new one.')) return;
    var persist = remembered();
    var r;
    try { r = await api('POST', '/me/key/rotate'); } catch (e) { say('The service could not be reached; your key was not changed.', true); return; }
    if (r.status !== 200) { if (r.status === 401) forget(); say(problem(r), true); return; }
    current = r.body.key;
    keep(current, persist);
    setText('new-key-value', r.body.key);
    fresh.hidden = false;
    await load();
    $('new-key-value').focus();
  });

  $('copy-key').addEventListener('click', function () {
    var text = $('new-key-value').textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { say('Copied.', false); }, function () { say('Select the key and copy it.', true); });
  });

  form.hidden = false;
  $('no-script').hidden = true;
  if (current) void load();
})();
