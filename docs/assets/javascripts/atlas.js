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
        && (!checks.includes("backward") || item.dataset.backward === "1")
        && (!checks.includes("observed") || item.dataset.observed === "1")
        && (!checks.includes("changed") || item.dataset.changed === "1");
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

  function code(text) {
    return element("code", text);
  }

  function lines(values) {
    const list = element("ul");
    for (const value of values) {
      const li = element("li");
      if (value instanceof Node) li.append(value); else li.textContent = value;
      list.append(li);
    }
    return list;
  }

  function keyed(map) {
    const table = element("table");
    for (const [key, ...cells] of Object.entries(map).map(([k, v]) => [k, ...(Array.isArray(v) ? v : [v])])) {
      const tr = element("tr");
      tr.append(element("td", key), ...cells.map((c) => element("td", c)));
      table.append(tr);
    }
    return Object.keys(map).length ? table : label("none");
  }

  function source(path, line, text) {
    const link = element("a", text);
    link.href = `https://github.com/pytorch/pytorch/blob/v${config.torch}/${path}#L${line}`;
    return link;
  }

  function family(entry) {
    const base = entry.name.split(".")[0];
    const others = items.map((i) => i.querySelector(".atlas-op").textContent)
      .filter((n) => n !== entry.name && n.split(".")[0] === base);
    if (!others.length) return null;
    const box = element("span");
    others.forEach((name, index) => {
      const link = element("a", name);
      link.href = `#op=${encodeURIComponent(name)}`;
      link.addEventListener("click", () => show(name));
      box.append(index ? ", " : "", link);
    });
    return [label("family", { base }), box];
  }

  function detail(entry) {
    const box = element("div", undefined, "atlas-entry");
    const list = element("dl");
    const schema = [code(entry.schema || "—")];
    const marks = entry.annotations || { writes: [], aliases: [] };
    if (marks.writes.length) schema.push(label("writes", { args: marks.writes.join(", ") }));
    for (const [index, arg] of marks.aliases) schema.push(label("aliases", { index, arg }));
    row(list, label("schema"), lines(schema));
    const related = family(entry);
    if (related) row(list, related[0], related[1]);
    const sources = [];
    if (entry.native_functions) {
      sources.push(source("aten/src/ATen/native/native_functions.yaml", entry.native_functions,
        label("native", { line: entry.native_functions })));
    }
    if (entry.derivatives) {
      sources.push(source("tools/autograd/derivatives.yaml", entry.derivatives.line,
        label("derivatives", { line: entry.derivatives.line })));
    } else if (entry.native_functions) {
      sources.push(label("no_derivative"));
    }
    if (sources.length) row(list, label("sources"), lines(sources));
    if (entry.derivatives) row(list, label("formula"), lines(entry.derivatives.formula.map(code)));
    row(list, label("tags"), entry.tags.length ? entry.tags.join(", ") : label("none"));
    if (entry.tags.includes("core")) row(list, "core", label("core"));
    row(list, label("registered_by"), label(`stage_${entry.registered_by}`));
    row(list, label("kernels"), keyed(entry.kernels));
    row(list, label("aliases_registered"), keyed(entry.aliases));
    if (Object.keys(entry.hidden || {}).length) row(list, label("hidden"), keyed(entry.hidden));
    row(list, label("python"), entry.python && entry.python.length ? entry.python.join(", ") : label("none"));
    row(list, label("table"), keyed(entry.table));
    row(list, label("composite"), `${label(`composite_${entry.composite}`)}: ${label(`define_${entry.composite}`)}`);
    row(list, label("decomposition"), entry.decomposition.length
      ? lines(entry.decomposition.map((flag) => label(`decomp_${flag}`))) : label("none"));
    const how = label(`how_${entry.inductor_how}`);
    const treatment = entry.inductor.replace(/_declined$/, "");
    const declined = entry.inductor.endsWith("_declined") ? ` ${label("explain_declined")}` : "";
    const notes = [entry.degenerate ? label("degenerate") : "", entry.fallback_set ? label("fallback_set") : ""]
      .filter(Boolean).map((note) => ` ${note}.`).join("");
    row(list, label("inductor"),
      `${label(`inductor_${entry.inductor}`)}. ${label(`explain_${treatment}`)}${declined} (${how})${notes}`);
    if (entry.sample) {
      const value = entry.error ? label("call_failed", { error: entry.error })
        : (entry.grad_fn ? code(entry.grad_fn) : label("no_grad_fn"));
      const called = [label("sample", { sample: entry.sample })];
      if (entry.arguments) called.push(code(`(${entry.arguments})`));
      const from = element("span");
      from.append(...called.flatMap((part, i) => (i ? [" ", part] : [part])));
      row(list, label("grad_fn"), lines([value, from]));
    } else {
      row(list, label("grad_fn"), label("not_sampled"));
    }
    if (entry.decomposes_to) row(list, label("decomposes_to"), code(entry.decomposes_to.join(", ")));
    if (entry.since) {
      const said = [];
      if (entry.since.added) said.push(label("since_added"));
      if (entry.since.kernels_gained) said.push(label("since_kernels_gained", { keys: entry.since.kernels_gained.join(", ") }));
      if (entry.since.kernels_lost) said.push(label("since_kernels_lost", { keys: entry.since.kernels_lost.join(", ") }));
      if (entry.since.schema) said.push(label("since_schema", { schema: entry.since.schema }));
      if (entry.since.tags) said.push(label("since_tags", { tags: entry.since.tags.join(", ") || label("none") }));
      row(list, label("since", { torch: entry.since.torch }), lines(said));
    }
    const walks = [label(`walked_${entry.walked}`)];
    for (const [start, path] of Object.entries(entry.walks)) {
      const li = element("span", `${label(`walk_${start}`)}: `);
      li.append(code(path.map((key) => {
        const own = entry.table[key];
        return own ? `${key} (${own[0]})` : key;
      }).join(" → ")));
      const missing = (entry.no_kernel || {})[start];
      if (missing) li.append(` ${label("no_kernel", { key: missing })}`);
      walks.push(li);
    }
    row(list, label("walks"), lines(walks));
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
    if (item.dataset.opening) return;  // its shard is on its way: a second click does not add a second entry
    item.dataset.opening = "1";
    try {
      const data = await shard(item.dataset.shard);
      item.append(detail(data[button.textContent]));
    } catch (error) {
      item.append(element("p", label("failed"), "atlas-error"));
    }
    delete item.dataset.opening;
    button.setAttribute("aria-expanded", "true");
  }

  // An operator's entry, opened (unless it is open or opening) and scrolled to: a family link, and an address
  // whose hash names it (#op=aten::addmm), as the site's search gives one for each operator.
  function show(name) {
    const item = name && items.find((i) => i.querySelector(".atlas-op").textContent === name);
    if (!item) return;
    item.hidden = false;
    if (!item.querySelector(".atlas-entry, .atlas-error")) open(item);
    item.scrollIntoView();
  }

  const wanted = () => new URLSearchParams(location.hash.slice(1)).get("op");

  atlas.addEventListener("click", (event) => {
    const button = event.target.closest(".atlas-op");
    if (button) open(button.closest("li"));
  });
  for (const input of controls.querySelectorAll("input, select")) input.addEventListener("input", filter);
  filter();
  show(wanted());
  addEventListener("hashchange", () => show(wanted()));  // a search result on this very page
})();
