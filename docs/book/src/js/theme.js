// mdBook's start of the page, from a file (see settings.js): values stored in localStorage
// wrapped in quotes are unwrapped, and the theme is set before any content is loaded.
try {
  let theme = localStorage.getItem("mdbook-theme");
  let sidebar = localStorage.getItem("mdbook-sidebar");
  if (theme.startsWith('"') && theme.endsWith('"')) {
    localStorage.setItem("mdbook-theme", theme.slice(1, theme.length - 1));
  }
  if (sidebar.startsWith('"') && sidebar.endsWith('"')) {
    localStorage.setItem("mdbook-sidebar", sidebar.slice(1, sidebar.length - 1));
  }
} catch (e) {}

const default_theme = window.matchMedia("(prefers-color-scheme: dark)").matches
  ? default_dark_theme
  : default_light_theme;
let theme;
try {
  theme = localStorage.getItem("mdbook-theme");
} catch (e) {}
if (theme === null || theme === undefined) {
  theme = default_theme;
}
const html = document.documentElement;
html.classList.remove(default_light_theme);
html.classList.add(theme);
html.classList.add("js");
