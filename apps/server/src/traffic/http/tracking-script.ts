// The tracking script of a direct campaign, `/{campaign}/t.js`. The same text for every campaign: it
// reads the campaign from its own address, records the click with `POST /c/{campaign}/visit` (the page's
// address as the click's, its query as the click's query), then points the page's links marked
// `data-switchyard="offer"` at the offer link of that click. No eval, nothing inline: a page's CSP needs
// only to allow the tracker's origin in `script-src` and `connect-src`. A refusal (an origin the campaign
// does not allow) is said in the console.
export const TRACKING_SCRIPT = `(function () {
  var me = document.currentScript;
  var say = function (text) {
    if (window.console) console.warn('Switchyard: ' + text);
  };
  if (!me || !window.fetch) return;
  var src = new URL(me.src);
  var parts = src.pathname.split('/');
  var campaign = parts[parts.length - 2];
  fetch(src.origin + '/c/' + campaign + '/visit', {
    method: 'POST',
    credentials: 'include',
    body: JSON.stringify({ url: location.href })
  })
    .then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) {
          say(answer.message || 'the click was not recorded (HTTP ' + response.status + ')');
          return;
        }
        var click = {
          clickId: answer.click_id,
          offerUrl: answer.offer_url,
          offerLink: answer.offer_link
        };
        window.switchyard = click;
        var point = function () {
          if (!click.offerLink) return;
          var links = document.querySelectorAll('a[data-switchyard="offer"]');
          for (var i = 0; i < links.length; i++) links[i].href = click.offerLink;
        };
        if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', point);
        else point();
        document.dispatchEvent(new CustomEvent('switchyard:click', { detail: click }));
      });
    })
    .catch(function (error) {
      say('the click was not recorded: ' + error);
    });
})();
`;
