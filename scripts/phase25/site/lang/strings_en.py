"""The site's own strings in English (see strings.py)."""

from .atlas_strings_en import STRINGS as ATLAS
from .chrome_strings_en import STRINGS as CHROME
from .drift_strings_en import STRINGS as DRIFT

DECIMAL = "."  # how a decimal number is written: 1.2

STRINGS: dict[str, str] = {
    "not_found_title": "Page not found",
    "not_found_text": "There is no page at this address. It may have moved when the site was reorganized, or the "
    "link you followed has a typo.",
    "not_found_home": "Start at the orientation page",
    "not_found_report": "Every snippet and its output: the execution report",
    "not_found_search": "Or search the site with the box at the top of the page.",
    "search_label": "Search the site",
    "version_title": "Version",
    "nav_drift": "Drift: torch {a} → {b}",
    "drift_page": "# Drift report: torch {a} → {b}\n\nWhat upgrading from torch {a} to {b} changes in the site's CPU "
    "outputs: every CPU snippet was run under torch {b} into a scratch folder of records and compared, output by "
    "output, with the committed records made under {a}. Each change is classified by the rule stated under the "
    "summary. The pages keep showing the {a} outputs until the pin changes; this page is reviewed, and its prose "
    "written, in the pull request that brings the upgrade.\n\n::: drift-report {name}\n",
    "lab_readme": "# {title}\n\nThis folder runs on its own, outside the site's repository: the notebook, the "
    "Python files its code imports and the running example's trained weights.\n\n{commands}\n\nThe outputs "
    "saved in the notebook were printed by the site's build machine with torch {torch}; a different torch or CPU "
    "may print other values where the notebook says so.\n",
    "code": "Code",
    "theme_permalink": "Permanent link",
    "theme_copy": "Copy to clipboard",
    "theme_copied": "Copied!",
    "theme_search_prompt": "Type to start searching",
    "ran_on": "Ran on",
    "captured_on": "Captured on",
    "generated_on": "Generated on",
    "for_emulated": "for an emulated {device}, never run",
    "device_cpu": "CPU",
    "device_cuda": "CUDA",
    "device_sm90-codegen": "H200 (emulated, never run)",
    "commit": "commit",
    "thread": "thread",
    "kernels_for": "{isa} kernels",
    "cpu_has": "the CPU has {isa}",
    "no_avx512": ", no AVX-512",
    "threads": "threads",
    "published": "Published with this output ({files}):",
    "file": "file",
    "files": "files",
    "stdout": "stdout",
    "stderr": "stderr",
    "no_output": "The snippet printed nothing.",
    "reproduce": "Reproduce it: unpack {kit} ({size} KB) and run `python reproduce.py {id}`, or download {source}.",
    "atlas_earlier": "This release's atlas was recorded by an earlier version of the atlas snippet. Its walks, "
    "labels and Inductor column were later found to be derived by rules that were wrong, so this archived page "
    "lists only what that version read off the registry as it was: the {overloads} overloads torch {torch} "
    "registered, each with the keys that hold a kernel of its own. The latest release's atlas shows every "
    "column, each computed by torch or observed from a call.",
    "atlas_summary": "The record lists {overloads} operator overloads in {namespaces} namespaces ({aten} of "
    "them aten), registered in torch {torch} once these had run: {stages}. {cpu} have a "
    "kernel of their own under CPU, {meta} under Meta.",
    "atlas_since": "Since torch {torch}, the site's previous pin: {added} overloads added, {removed} removed "
    "({names}), {changed} register other kernels, another schema or other tags; each says what in its entry. Kernels "
    "under CUDA keys are not compared with a CPU-only build (+cpu), which registers none.",
    "atlas_filter_changed": "changed since {torch}",
    "atlas_js_since": "Since torch {torch}",
    "atlas_js_since_added": "added",
    "atlas_js_since_kernels_gained": "kernels gained at: {keys}",
    "atlas_js_since_kernels_lost": "kernels lost at: {keys}",
    "atlas_js_since_schema": "schema was: {schema}",
    "atlas_js_since_tags": "tags were: {tags}",
    "atlas_stage": "{stage}: {n}",
    "atlas_observed": "{observed} overloads are reached by the first sample input of PyTorch's own test suite "
    "(OpInfo) and were called directly: their walks ({walks}) were observed with spy kernels, and each equals the "
    "walk the snippet's rule infers from the dispatch table. The walks of the other {inferred} are inferred by "
    "that rule and not observed ({no_kernel} of them stop at a key where no kernel is registered: a call there "
    "raises NotImplementedError). What Inductor does was seen on {seen} overloads, whose sample Inductor's "
    "decomposition was run on; the other {read} say what Inductor's tables, the schema or the dispatch table hold, "
    "and that it was not seen.",
    "atlas_cuda_missing": "CUDA column: not captured on a GPU yet; it fills in when the GPU capture runs (the GPU "
    "machine has its own torch, named then).",
    "atlas_cuda": "CUDA column: from the CUDA record, torch {torch} on the GPU machine.",
    "atlas_search": "Find an operator (part of its name or a tag):",
    "atlas_composite": "Composite kind:",
    "atlas_any": "any",
    "atlas_filter_cpu": "a CPU kernel of its own",
    "atlas_filter_decomposed": "decomposed by Inductor (seen, every call)",
    "atlas_filter_backward": "a kernel of its own at AutogradCPU",
    "atlas_filter_observed": "walk observed",
    "atlas_legend_composite": "Composite kinds (the alias key the overload registered a kernel under)",
    "atlas_legend_inductor": "What Inductor does (seen where its decomposition ran on a sample, else read from a "
    "table, as each says)",
    "atlas_count": "{n} overloads",
    "atlas_composite_implicit": "composite (implicit)",
    "atlas_composite_explicit": "composite (explicit)",
    "atlas_composite_explicit-non-functional": "composite (explicit, non-functional)",
    "atlas_composite_none": "no composite kernel",
    "atlas_js_shown": "{shown} of {total} overloads shown",
    "atlas_js_schema": "Schema",
    "atlas_js_writes": "written in place: {args}",
    "atlas_js_aliases": "output {index} aliases {arg} (a view of it, or the same tensor)",
    "atlas_js_family": "Other overloads of {base}",
    "atlas_js_sources": "Where it is declared",
    "atlas_js_native": "native_functions.yaml, line {line}",
    "atlas_js_derivatives": "derivatives.yaml, line {line}",
    "atlas_js_no_derivative": "no entry in derivatives.yaml",
    "atlas_js_formula": "Derivative formula",
    "atlas_js_tags": "Tags",
    "atlas_js_registered_by": "Registered by",
    "atlas_js_kernels": "Kernels registered at a key, and the file that registered each",
    "atlas_js_aliases_registered": "Kernels registered under an alias key",
    "atlas_js_hidden": "Registrations a later one hides at the same key",
    "atlas_js_python": "Python kernels (py_impl)",
    "atlas_js_table": "Its own rows of the dispatch table (kind, and the registration it comes from); every "
    "other key holds the backend fallback all operators share",
    "atlas_js_none": "none",
    "atlas_js_composite": "Composite kind",
    "atlas_js_decomposition": "Decompositions",
    "atlas_js_decomp_torch._decomp": "torch._decomp has one",
    "atlas_js_decomp_core_aten_decompositions": "in core_aten_decompositions() (used to reach core ATen)",
    "atlas_js_decomp_inductor": "in Inductor's table",
    "atlas_js_core": "tagged core: in the core ATen operator set",
    "atlas_js_inductor": "What Inductor does",
    "atlas_js_how_observed": "seen: Inductor's decomposition was run on the sample",
    "atlas_js_how_table": "read from a table (Inductor's, the dispatch table, the schema), not seen on a call",
    "atlas_js_degenerate": "the sample has a dimension of size 0 or 1: a call with other shapes may be declined",
    "atlas_js_fallback_set": "also in Inductor's fallback set: some calls are handed to the ATen kernel",
    "atlas_js_grad_fn": "grad_fn of a direct call (floating-point inputs requiring grad)",
    "atlas_js_no_grad_fn": "none: the call records no node",
    "atlas_js_call_failed": "the call failed with requires_grad inputs ({error})",
    "atlas_js_sample": "Called on the arguments OpInfo's sample “{sample}” reached it with",
    "atlas_js_decomposes_to": "Operators torch._decomp's decomposition produces (traced on that sample)",
    "atlas_js_not_sampled": "not called: no OpInfo sample reaches this overload",
    "atlas_js_walks": "Which keys' kernels run, highest first (theory 01 walks linear the same way)",
    "atlas_js_walked_observed": "observed with a spy kernel at every key, on the sample's arguments",
    "atlas_js_walked_inferred": "inferred from the dispatch table by the snippet's rule (not observed), for a call "
    "on a float tensor (no sample)",
    "atlas_js_no_kernel": "then {key}, where no kernel is registered: such a call raises NotImplementedError",
    "atlas_js_walk_call": "a call",
    "atlas_js_walk_autocast": "under torch.autocast",
    "atlas_js_walk_inference_mode": "in inference_mode",
    "atlas_js_walk_meta": "on meta tensors",
    "atlas_js_link": "Link to this operator",
    "atlas_js_failed": "The data of this operator could not be loaded.",
    "rank": "rank {rank}",
    "rank_no_output": "This rank printed nothing.",
    "collectives": (
        "Calls this rank made to the collective and point-to-point functions of `torch.distributed`: {calls}."
    ),
    "no_collectives": "This rank called none of the collective or point-to-point functions of `torch.distributed`.",
    "long": "Output: {lines} lines (click to open)",
    "gap": "… {lines} lines …",
    "whole_output": "The whole output: {lines} lines",
    "open_full_size": "Open the picture at full size: {name}",
    "omitted": "{lines} lines omitted here: the runner keeps the first and the last 32 KiB of each stream.",
    "volatile": "The marked lines depend on the machine by nature; they are what {machine} printed. The test "
    "suite compares every other line byte for byte on each run, and not these.",
    "artifact": "File written by the snippet: {name} ({lines} lines)",
    "figure": "Picture drawn by the snippet from what it measured: {name}",
    "diagram_title": "Diagram drawn by the snippet from what it observed ({name})",
    "diagram_math kernel": "math kernel",
    "diagram_autograd kernel": "autograd kernel",
    "diagram_kernel": "kernel",
    "diagram_fallthrough": "fallthrough",
    "diagram_default backend kernel": "default backend kernel",
    "diagram_calls": "calls",
    "open_file": "open {name}",
    "artifacts_many": "The snippet wrote {files}:",
    "shown_lines": "lines {ranges} of {total}; the rest sets up and prints",
    "shown_and": " and ",
    "whole_file": "The whole file: {total} lines, its header (lines 1–{last}: devices, dependencies, environment), "
    "set-up and printing included",
    "header_lines": "lines 1–{last}: its header (devices, dependencies, environment)",
    "lab_download_title": "Run this lab on your machine",
    "lab_download": "Download {file} ({size} KB): the notebook, the Python files its code imports and the running "
    "example's weights. It runs outside this site's repository, on Python with torch and Jupyter.",
    "lab_notebook": "Or the notebook alone, {file} ({size} KB), to read it in Jupyter: its code imports the files "
    "of the zip.",
    "lab_source": "Its {source} in the site's repository, or open it in {colab}: upload the zip's files beside it "
    "before you run it.",
    "lab_source_label": "source",
    "expected_error": "Raises {type}, as this example intends.",
    "pending_label": "{device} · not captured yet",
    "pending_tab": "This snippet has not been run on a GPU yet, and the site shows only output recorded from real "
    "runs: once it runs on one, this tab will show what it prints there.",
    "code_waiting": "Show the code: it needs a CUDA GPU, so it has no output below yet",
    "output_region": "Output of {id} ({device})",
    "report_region": "Every run and the state of its record",
    "stale_title": "Stale output",
    "stale": "This output is out of date: {reason}. It is shown only in a local preview; a strict build refuses it.",
    "stale_source": "the snippet, or a file it declares it depends on, changed since it was recorded",
    "stale_environment": "the snippet's environment or the runner's pinned versions changed",
    "stale_torch": "recorded with torch {recorded}; this machine has torch {torch}",
    "failed_title": "This run failed",
    "missing_title": "No output recorded",
    "missing": "There is no {device} record for this snippet. Run `make records`.",
    "corrupt_title": "Unreadable record",
    "outdated_title": "Outdated translation",
    "outdated": "The English page has changed since this one was translated. Something may be missing here: "
    "see the [English version]({english_url}).",
    "report_snippet": "Snippet",
    "report_device": "Device",
    "report_status": "Status",
    "report_wall": "Wall time",
    "report_torch": "torch",
    "report_where": "Where",
    "report_date": "Date",
    "report_warnings": "Warnings",
    "report_warnings_title": "Warnings the runs emitted ({n})",
    "report_category": "Category",
    "report_module": "Raised by",
    "report_message": "Message",
    "status_current": "current",
    "status_failed": "failed",
    "status_timeout": "timed out",
    "status_stale": "stale",
    "status_missing": "not captured yet",
    "status_no_record": "no record",
    "status_corrupt": "unreadable",
    "report_summary": "{total} runs of {snippets} snippets: {ok} current, {missing} not captured on a GPU yet, "
    "{bad} with a problem.",
    "drift_summary": "{total} CPU snippets compared, torch {a} ({a_date}) against torch {b} ({b_date}): "
    "{changed} changed, {unchanged} unchanged, {other} on one side only.",
    "drift_classes": "Of the changes: {real} in what the snippet shows, {build} from the build of torch "
    "(CUDA kernels registered, a CUDA-less warning), {volatile} only in lines the snippet declares "
    "machine-dependent, {lines} only in line numbers inside torch's own files.",
    "drift_unchanged": "unchanged",
    "drift_changed": "changed",
    "drift_only-a": "only before",
    "drift_only-b": "only after",
    "drift_missing": "in neither",
    "drift_kind": "Kind of change",
    "drift_kind_real": "what the snippet shows",
    "drift_kind_build": "build of torch",
    "drift_kind_line-numbers": "line numbers only",
    "drift_kind_volatile": "machine-dependent lines only",
    "drift_kind_none": "—",
    "cpu_family_model": "family {family} model {model}",
    "changed_in": "changed in {version}",
    "drift_edited": "snippet edited since this comparison",
    "drift_diff": "Diff of the recorded output",
    "drift_warnings_title": "Warnings of {snippet} that the upgrade changes:",
    "drift_warning_new": "new:",
    "drift_warning_gone": "gone:",
    "atlas_drift_title": "What the upgrade changes in the dispatcher atlas ({snippet}):",
    "atlas_drift_added": "{n} operator overloads added:",
    "atlas_drift_removed": "{n} operator overloads removed:",
    "atlas_drift_kernels_gained": "{n} overloads gained a kernel under a key:",
    "atlas_drift_kernels_lost": "{n} overloads lost a kernel under a key:",
    "atlas_drift_composite": "{n} overloads changed their composite kind:",
    "atlas_drift_decomposition": "{n} overloads gained or lost a Python decomposition:",
    "atlas_drift_inductor": "{n} overloads are treated otherwise by Inductor:",
    "atlas_drift_grad_fn": "{n} overloads record another grad_fn:",
    "atlas_drift_none": "no operator changed in what the atlas shows.",
}
STRINGS.update(DRIFT)  # the drift page's own strings
STRINGS.update(CHROME)  # the words about a record's own words
STRINGS.update(ATLAS)  # the atlas's labels
