/* Opening a login link (templates/account/invitation_open.html, issue 22). The address is
 * /invite/#<token>: the token travels in the URL's fragment, which browsers never send to the
 * server. This script takes it from the fragment, removes it from the address bar and puts it
 * into the page's form; it posts the form at once unless someone is logged in on this phone
 * already (then the page asks first). Without JavaScript the code is typed into the same form.
 */
(function () {
  "use strict";
  var form = document.getElementById("invitation-form");
  var code = document.getElementById("id_code");
  var token = (window.location.hash || "").replace(/^#/, "");
  if (!form || !code || !token) { return; }
  try { history.replaceState(null, "", window.location.pathname + window.location.search); } catch (e) { /* old browser */ }
  if (document.getElementById("invitation-error")) { return; }  // this code was just refused
  code.value = decodeURIComponent(token);
  if (form.getAttribute("data-auto") !== "1") { return; }
  var note = document.getElementById("invitation-opening");
  if (note) { note.hidden = false; }
  form.submit();
}());
