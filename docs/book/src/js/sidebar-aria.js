// ARIA attributes once the sidebar and its toggle button are in the page, from a file (see
// settings.js).
document.getElementById("mdbook-sidebar-toggle").setAttribute("aria-expanded", sidebar === "visible");
document.getElementById("mdbook-sidebar").setAttribute("aria-hidden", sidebar !== "visible");
Array.from(document.querySelectorAll("#mdbook-sidebar a")).forEach(function (link) {
  link.setAttribute("tabIndex", sidebar === "visible" ? 0 : -1);
});
