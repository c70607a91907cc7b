// The /contribute form's script (inlined; its CSP allows it by hash). Before the form is sent, it solves the
// proof-of-work challenge the server embedded in the form (ALTCHA: find the number n with
// SHA-256(salt + n) = challenge) and puts the signed answer in the hidden "altcha" field. Without this
// script the form is still accepted, on its signed token and minimum fill time, within the same daily limit.
'use strict';
(function () {
  var form = document.querySelector('form.intake');
  if (!form || !window.crypto || !crypto.subtle || !window.TextEncoder) return;
  var status = document.getElementById('pow-status');
  var answer = form.querySelector('input[name=altcha]');
  var challenge = JSON.parse(form.getAttribute('data-challenge'));
  var solving = false;

  function hex(buf) {
    var b = new Uint8Array(buf), s = '';
    for (var i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    return s;
  }
  async function solve() {
    var enc = new TextEncoder();
    var max = challenge.maxnumber || challenge.maxNumber || 1000000;
    for (var n = 0; n <= max; n++) {
      if (hex(await crypto.subtle.digest('SHA-256', enc.encode(challenge.salt + n))) === challenge.challenge) return n;
    }
    return null;
  }

  form.addEventListener('submit', function (ev) {
    if (answer.value) return; // solved: let it go
    ev.preventDefault();
    if (solving) return;
    solving = true;
    status.textContent = 'Checking that a person is sending this (a second or two)\u2026';
    solve().then(function (n) {
      solving = false;
      if (n === null) { status.textContent = 'The check could not be completed; the form will be sent without it.'; form.submit(); return; }
      answer.value = btoa(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number: n, salt: challenge.salt, signature: challenge.signature }));
      status.textContent = 'Sending\u2026';
      form.submit();
    });
  });
})();
