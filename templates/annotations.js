/* Code annotations (content/syntax/code.md#code-annotations). The build links each marker
   in an annotated block to its item in the numbered list under the block; this script makes
   each link a button that shows its item beside it, and hides the list. Escape, a second
   press or a click elsewhere closes it; a note may hold markers of its own, whose notes open
   over it. Without the script the list stays readable under the block. */
(function () {
  "use strict";
  var open = []; // [button, item] shown now, the outermost first
  var byItem = {}; // an item's id -> its first button, for a link to the item

  function closeFrom(index, focus) {
    while (open.length > index) {
      var shown = open.pop();
      shown[0].setAttribute("aria-expanded", "false");
      shown[1].classList.remove("open");
      if (focus && open.length === index) shown[0].focus();
    }
  }

  function place(button, item) {
    var box = item.parentNode.parentNode.getBoundingClientRect();
    var at = button.getBoundingClientRect();
    item.style.top = at.bottom - box.top + 4 + "px";
    var left = Math.min(at.left - box.left, box.width - item.offsetWidth);
    item.style.left = Math.max(0, left) + "px";
  }

  function toggle(button, item) {
    var keep = 0; // the notes that hold this button stay open
    while (keep < open.length && open[keep][1].contains(button) && open[keep][0] !== button) keep++;
    var same = keep < open.length && open[keep][0] === button;
    closeFrom(keep, false);
    if (same) return;
    item.classList.add("open");
    button.setAttribute("aria-expanded", "true");
    place(button, item);
    open.push([button, item]);
  }

  document.querySelectorAll(".annotated > ol.annotations").forEach(function (list) {
    list.classList.add("popovers");
  });
  document.querySelectorAll("a.annotation-marker").forEach(function (link) {
    var item = document.getElementById(link.getAttribute("href").slice(1));
    var block = link.closest(".annotated");
    if (!item || !block || item.parentNode.parentNode !== block) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "annotation-marker";
    button.textContent = link.textContent;
    button.setAttribute("aria-label", link.getAttribute("aria-label"));
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-controls", item.id);
    button.addEventListener("click", function (event) {
      event.stopPropagation();
      toggle(button, item);
    });
    link.replaceWith(button);
    if (!byItem[item.id]) byItem[item.id] = button;
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open.length) closeFrom(open.length - 1, true);
  });
  document.addEventListener("click", function (event) {
    var keep = 0;
    while (keep < open.length && open[keep][1].contains(event.target)) keep++;
    closeFrom(keep, false);
  });

  var target = byItem[location.hash.slice(1)];
  if (target) toggle(target, document.getElementById(target.getAttribute("aria-controls")));
})();
