/*
 * Travel financing checkout: the embed script (protocol version 1).
 *
 *   <div id="checkout"></div>
 *   <script src="https://CHECKOUT_HOST/embed.js" data-session="cs_…" data-target="#checkout" async></script>
 *
 * or, from your own script, TravelCheckout.mount({ session, element, locale, onEvent }).
 *
 * It puts the checkout of a session in an iframe, keeps the iframe as tall as the checkout (no
 * inner scrollbar), and passes the checkout's events to your page: `ready`, `step` (details,
 * offers, provider, status) and `outcome` (the final state). Messages are accepted only from the
 * checkout's origin and its own iframe; the checkout sends them to your page's origin only (one of
 * your allowed origins). When the customer goes on to the finance provider, your whole page goes
 * there (the provider's checkout cannot be framed); the provider brings the customer back to your
 * return URL, where you mount the same session again to show the outcome.
 * See docs/integrators/embedding.md.
 */
(function () {
  "use strict";

  var SOURCE = "travel-checkout";
  var SESSION_ID = /^cs_[\w-]{10,64}$/;
  var TITLES = { es: "Pago a plazos", en: "Installment payment" };
  var script = document.currentScript;
  var defaultOrigin = script && script.src ? new URL(script.src).origin : undefined;

  function elementOf(target) {
    if (typeof target === "string") return document.querySelector(target);
    return target && target.nodeType === 1 ? target : null;
  }

  /** An absolute URL, or null for anything else (a malformed message is ignored). */
  function absoluteUrl(value) {
    if (typeof value !== "string") return null;
    try {
      return new URL(value);
    } catch {
      return null;
    }
  }

  function mount(options) {
    options = options || {};
    if (!SESSION_ID.test(String(options.session))) throw new Error("TravelCheckout.mount: `session` must be a checkout session id (cs_…)");
    var element = elementOf(options.element);
    if (!element) throw new Error("TravelCheckout.mount: `element` must be an element or a selector that finds one");
    var origin = options.checkoutOrigin ? new URL(options.checkoutOrigin).origin : defaultOrigin;
    if (!origin) throw new Error("TravelCheckout.mount: load embed.js from the checkout's origin, or pass `checkoutOrigin`");
    var locale = options.locale === "es" || options.locale === "en" ? options.locale : undefined;
    var pageLanguage = (document.documentElement.lang || "").slice(0, 2).toLowerCase();

    var url = new URL("/checkout/" + encodeURIComponent(options.session), origin);
    url.searchParams.set("embed", window.location.origin);
    if (locale) url.searchParams.set("lang", locale);

    var iframe = document.createElement("iframe");
    iframe.src = url.href;
    iframe.title = options.title || TITLES[locale || pageLanguage] || TITLES.es;
    iframe.style.cssText = "display:block;width:100%;border:0;margin:0;padding:0;height:" + (Number(options.initialHeight) || 640) + "px";
    element.textContent = "";
    element.appendChild(iframe);

    var sessionId = options.session;
    var ready = false;
    var lastStep;

    function emit(event) {
      if (typeof options.onEvent === "function") {
        try {
          options.onEvent(event);
        } catch (error) {
          console.error(error);
        }
      }
      element.dispatchEvent(new CustomEvent("travelcheckout", { detail: event, bubbles: true }));
    }

    function onMessage(event) {
      if (event.origin !== origin || event.source !== iframe.contentWindow) return;
      var data = event.data;
      if (!data || data.source !== SOURCE || data.sessionId !== sessionId) return;
      switch (data.type) {
        case "resize": {
          var height = Number(data.height);
          if (height > 0 && height < 100000) iframe.style.height = Math.ceil(height) + "px";
          return;
        }
        case "ready":
          if (ready) return;
          ready = true;
          emit({ type: "ready", sessionId: sessionId });
          return;
        case "step":
          // A new step starts at the top of the frame: bring it into view if the page scrolled past it.
          if (lastStep !== undefined && data.step !== lastStep && iframe.getBoundingClientRect().top < 0)
            iframe.scrollIntoView({ block: "start" });
          lastStep = data.step;
          emit({ type: "step", step: data.step, state: data.state, sessionId: sessionId });
          return;
        case "outcome":
          emit({ type: "outcome", state: data.state, final: true, sessionId: sessionId });
          return;
        case "navigate": {
          // Only to the checkout's own origin (its hand-off to the provider), never anywhere else.
          var target = absoluteUrl(data.url);
          if (target && target.origin === origin && options.navigate !== false) window.location.assign(target.href);
          return;
        }
      }
    }

    window.addEventListener("message", onMessage);
    return {
      iframe: iframe,
      unmount: function () {
        window.removeEventListener("message", onMessage);
        iframe.remove();
      },
    };
  }

  var api = window.TravelCheckout || {};
  api.version = 1;
  api.mount = mount;
  window.TravelCheckout = api;

  if (script && script.dataset && script.dataset.session) {
    var start = function () {
      var element = script.dataset.target ? document.querySelector(script.dataset.target) : null;
      if (!element) {
        element = document.createElement("div");
        script.parentNode.insertBefore(element, script.nextSibling);
      }
      mount({ session: script.dataset.session, element: element, locale: script.dataset.locale });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})();
