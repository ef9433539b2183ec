// The table-of-contents button toggles the checkbox book.js listens to (a file: see
// settings.js).
document.getElementById("mdbook-sidebar-toggle").addEventListener("click", function () {
  document.getElementById("mdbook-sidebar-toggle-anchor").click();
});
