/* Code annotations (content/syntax/code.md#code-annotations). The build links each marker
   in a code block to its item in the numbered list under the block; this script makes each
   link a button that shows its item beside it, and hides the list. Escape, a second press or
   a click elsewhere closes it. Without the script the list stays readable under the block. */
(function () {
  "use strict";
  var open = null; // [button, item] shown now
  var byItem = {}; // an item's id -> [block, its first button], for a link to the item

  function close(focus) {
    if (!open) return;
    open[0].setAttribute("aria-expanded", "false");
    open[1].classList.remove("open");
    if (focus) open[0].focus();
    open = null;
  }

  function place(block, button, item) {
    var box = block.getBoundingClientRect(), at = button.getBoundingClientRect();
    item.style.top = at.bottom - box.top + 4 + "px";
    var left = Math.min(at.left - box.left, box.width - item.offsetWidth);
    item.style.left = Math.max(0, left) + "px";
  }

  function show(block, button, item) {
    var same = open && open[0] === button;
    close(false);
    if (same) return;
    item.classList.add("open");
    button.setAttribute("aria-expanded", "true");
    place(block, button, item);
    open = [button, item];
  }

  document.querySelectorAll(".annotated").forEach(function (block) {
    var list = block.querySelector(":scope > ol.annotations");
    if (!list) return;
    list.classList.add("popovers");
    block.querySelectorAll("a.annotation-marker").forEach(function (link) {
      var item = document.getElementById(link.getAttribute("href").slice(1));
      if (!item || !list.contains(item)) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "annotation-marker";
      button.textContent = link.textContent;
      button.setAttribute("aria-label", link.getAttribute("aria-label"));
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", item.id);
      button.addEventListener("click", function (event) {
        event.stopPropagation();
        show(block, button, item);
      });
      link.replaceWith(button);
      if (!byItem[item.id]) byItem[item.id] = [block, button];
    });
  });

  var target = byItem[location.hash.slice(1)];
  if (target) show(target[0], target[1], document.getElementById(target[1].getAttribute("aria-controls")));

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) close(true);
  });
  document.addEventListener("click", function (event) {
    if (open && !open[1].contains(event.target)) close(false);
  });
})();
