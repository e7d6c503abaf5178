/* sitegen graph view: draws the nodes of #graph-data with vis-network (inlined beside this
   script) and opens a node's page on click. The page reads fine without it. */
(function () {
  "use strict";
  var holder = document.getElementById("graph");
  var raw = document.getElementById("graph-data");
  if (!holder || !raw || typeof vis === "undefined") { return; }
  var data = JSON.parse(raw.textContent);
  var options = data.options;
  // Labels follow the page's text colour, so they stay readable in the dark theme.
  options.nodes = options.nodes || {};
  options.nodes.font = options.nodes.font || {};
  options.nodes.font.color = window.getComputedStyle(document.body).color;
  var nodes = new vis.DataSet(data.nodes);
  var edges = new vis.DataSet(data.edges);
  var network = new vis.Network(holder, { nodes: nodes, edges: edges }, options);
  // Once laid out, stop the simulation: a calm picture, and no CPU spent on jiggling.
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({ physics: false });
  });
  network.on("click", function (params) {
    if (!params.nodes.length) { return; }
    var node = nodes.get(params.nodes[0]);
    if (node && node.href) { window.location.href = node.href; }
  });
}());
