// The site root and default themes for mdBook's scripts, given as the attributes of the tag
// that loads this file: a file rather than an inline script, so that the book runs under a
// Content-Security-Policy of `script-src 'self'`.
const path_to_root = document.currentScript.dataset.root;
const default_light_theme = document.currentScript.dataset.light;
const default_dark_theme = document.currentScript.dataset.dark;
if (document.currentScript.dataset.searchIndex) {
  window.path_to_searchindex_js = document.currentScript.dataset.searchIndex;
}
if ("lineNumbers" in document.currentScript.dataset) window.playground_line_numbers = true;
if ("copyable" in document.currentScript.dataset) window.playground_copyable = true;
