/*
 * Travel financing checkout: the installment badge for product pages.
 *
 *   <div data-installments-badge data-partner="YOUR_PARTNER_ID" data-amount="1234.50"></div>
 *   <script src="https://CHECKOUT_HOST/badge.js" async></script>
 *
 * Optional: data-country (ISO 3166-1 alpha-3, default ESP), data-locale (es or en; default the
 * page's language). Shows "desde 24 × 56,94 €/mes" / "from 24 × €56.94 per month" and the
 * representative example behind a disclosure; shows nothing outside the financed range (60 to
 * 5,000 EUR) or when no plan exists. Figures come from the checkout's server (GET /api/badge),
 * never from a key in the page. Change data-amount (a price that depends on options) and the
 * badge follows. Style it with ::part(badge), ::part(label), ::part(toggle), ::part(example).
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src).origin : window.location.origin;
  var SELECTOR = "[data-installments-badge]";
  var CSS =
    ":host{display:block;font:inherit;color:inherit}" +
    ":host([hidden]){display:none}" +
    ".label{margin:0;font-weight:700}" +
    "details{margin:.25rem 0 0;font-size:.875em}" +
    "summary{cursor:pointer;text-decoration:underline;text-underline-offset:2px;min-height:24px;display:list-item}" +
    "p{margin:.25rem 0 0}" +
    ".warning{font-weight:700}";

  function hide(element) {
    element.hidden = true;
    if (element.shadowRoot) element.shadowRoot.replaceChildren();
  }

  function node(tag, className, text, part) {
    var child = document.createElement(tag);
    if (className) child.className = className;
    if (part) child.setAttribute("part", part);
    if (text !== undefined) child.textContent = text;
    return child;
  }

  function show(element, data) {
    var root = element.shadowRoot || element.attachShadow({ mode: "open" });
    if (typeof CSSStyleSheet === "function" && "adoptedStyleSheets" in root) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
      root.replaceChildren();
    } else {
      root.replaceChildren(node("style", "", CSS));
    }
    var badge = node("div", "badge", undefined, "badge");
    badge.lang = data.locale;
    badge.appendChild(node("p", "label", data.text.label, "label"));
    var details = node("details", "", undefined, "example");
    details.appendChild(node("summary", "", data.text.exampleToggle, "toggle"));
    details.appendChild(node("p", "", data.text.example));
    details.appendChild(node("p", "warning", data.text.warning));
    badge.appendChild(details);
    root.appendChild(badge);
    element.hidden = false;
  }

  function render(element) {
    var partner = element.getAttribute("data-partner");
    var amount = element.getAttribute("data-amount");
    if (!partner || !amount) return hide(element);
    var url = new URL("/api/badge", origin);
    url.searchParams.set("partner", partner);
    url.searchParams.set("amount", amount.trim());
    var country = element.getAttribute("data-country");
    if (country) url.searchParams.set("country", country);
    var locale = element.getAttribute("data-locale") || (document.documentElement.lang || "").slice(0, 2);
    if (locale) url.searchParams.set("lang", locale);
    var request = url.href;
    element.setAttribute("data-badge-request", request);
    fetch(request, { credentials: "omit" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (data) {
        // A newer amount may have been asked for meanwhile: only the latest answer counts.
        if (element.getAttribute("data-badge-request") !== request) return;
        if (data && data.visible) show(element, data);
        else hide(element);
      })
      .catch(function () {
        hide(element);
      });
  }

  var observer = new MutationObserver(function (records) {
    records.forEach(function (record) {
      if (record.target.nodeType === 1) render(record.target);
    });
  });

  function start() {
    document.querySelectorAll(SELECTOR).forEach(function (element) {
      render(element);
      observer.observe(element, { attributes: true, attributeFilter: ["data-partner", "data-amount", "data-country", "data-locale"] });
    });
  }

  window.TravelCheckoutBadge = { render: render, version: 1 };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
