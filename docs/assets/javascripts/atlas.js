// The dispatcher atlas's search box, filters and detail view. The list itself is plain HTML (the
// browser's find works without this script); an operator's detail is fetched from the published data
// of its shard, once, when it is opened. Every word shown comes from the page's language (data-atlas).
(() => {
  const atlas = document.querySelector(".atlas[data-atlas]");
  if (!atlas) return;
  const config = JSON.parse(atlas.dataset.atlas);
  const label = (key, values = {}) =>
    (config.labels[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
  const items = [...atlas.querySelectorAll(".atlas-list > li")];
  const controls = atlas.querySelector(".atlas-controls");
  const search = atlas.querySelector(".atlas-search");
  const kind = atlas.querySelector(".atlas-kind");
  const count = atlas.querySelector(".atlas-count");
  const shards = new Map();
  controls.hidden = false;

  function filter() {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const checks = [...controls.querySelectorAll("input[data-filter]:checked")].map((c) => c.dataset.filter);
    let shown = 0;
    for (const item of items) {
      const text = `${item.querySelector(".atlas-op").textContent} ${item.dataset.tags}`.toLowerCase();
      const visible = words.every((w) => text.includes(w))
        && (!kind.value || item.dataset.composite === kind.value)
        && (!checks.includes("cpu") || item.dataset.cpu === "1")
        && (!checks.includes("decomposed") || item.dataset.inductor === "decomposed")
        && (!checks.includes("backward") || item.dataset.backward === "1");
      item.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    count.textContent = label("shown", { shown, total: items.length });
  }

  async function shard(name) {
    if (!shards.has(name)) {
      shards.set(name, fetch(`${config.base}${name}.json`).then((r) => {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      }));
    }
    return shards.get(name);
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function row(list, term, value) {
    list.append(element("dt", term));
    const dd = element("dd");
    if (value instanceof Node) dd.append(value); else dd.textContent = value;
    list.append(dd);
  }

  function detail(entry) {
    const box = element("div", undefined, "atlas-entry");
    const list = element("dl");
    row(list, label("schema"), element("code", entry.schema || "—"));
    row(list, label("tags"), entry.tags.length ? entry.tags.join(", ") : label("none"));
    const table = element("table");
    for (const [key, file] of Object.entries(entry.kernels)) {
      const tr = element("tr");
      tr.append(element("td", key), element("td", file));
      table.append(tr);
    }
    row(list, label("kernels"), Object.keys(entry.kernels).length ? table : label("none"));
    row(list, label("composite"), label(`explain_${entry.composite}`));
    row(list, label("decomposition"), label(`decomposition_${entry.decomposition}`));
    row(list, label("inductor"), config.labels[`inductor_${entry.inductor}`] || entry.inductor);
    row(list, label("grad_fn"), entry.grad_fn ? element("code", entry.grad_fn) : label("not_sampled"));
    if (entry.decomposes_to) row(list, label("decomposes_to"), element("code", entry.decomposes_to.join(", ")));
    const walks = element("ul");
    for (const [start, path] of Object.entries(entry.walks)) {
      const li = element("li", `${label(`walk_${start}`)}: `);
      li.append(element("code", path.map((step) => step.replace(":", " (") + ")").join(" → ")));
      walks.append(li);
    }
    row(list, label("walks"), walks);
    box.append(list);
    const link = element("a", label("link"));
    link.href = `#op=${encodeURIComponent(entry.name)}`;
    box.append(link);
    return box;
  }

  async function open(item) {
    const button = item.querySelector(".atlas-op");
    const existing = item.querySelector(".atlas-entry, .atlas-error");
    if (existing) {
      existing.remove();
      button.setAttribute("aria-expanded", "false");
      return;
    }
    try {
      const data = await shard(item.dataset.shard);
      item.append(detail(data[button.textContent]));
    } catch (error) {
      item.append(element("p", label("failed"), "atlas-error"));
    }
    button.setAttribute("aria-expanded", "true");
  }

  atlas.addEventListener("click", (event) => {
    const button = event.target.closest(".atlas-op");
    if (button) open(button.closest("li"));
  });
  for (const input of controls.querySelectorAll("input, select")) input.addEventListener("input", filter);
  filter();
  const wanted = new URLSearchParams(location.hash.slice(1)).get("op");
  const target = wanted && items.find((i) => i.querySelector(".atlas-op").textContent === wanted);
  if (target) {
    open(target);
    target.scrollIntoView();
  }
})();
