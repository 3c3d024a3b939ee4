/* Opening a private link (templates/links/open.html, issue 15). The printed address is
 * /p/#<token>: the token travels in the URL's fragment, which browsers never send to the server,
 * so it appears in no access log. This script takes it from the fragment, removes it from the
 * address bar and the history entry, and posts it with the page's form (a POST body is never
 * logged); the server keeps the link in the session and redirects to the entrant's own page.
 * Without JavaScript the code is typed into the same form.
 */
(function () {
  "use strict";
  var form = document.getElementById("link-form");
  var code = document.getElementById("id_code");
  var token = (window.location.hash || "").replace(/^#/, "");
  if (!form || !code || !token) { return; }
  try { history.replaceState(null, "", window.location.pathname + window.location.search); } catch (e) { /* old browser */ }
  if (document.getElementById("link-error")) { return; }  // this code was just refused: do not post it again
  code.value = decodeURIComponent(token);
  var note = document.getElementById("link-opening");
  if (note) { note.hidden = false; }
  form.submit();
}());
