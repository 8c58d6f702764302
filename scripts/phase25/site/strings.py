"""The strings the site's code writes itself, in each language, with numbers and plurals done right.

The vocabulary follows ``GLOSSARY.md`` (snippet = «fragmento», build = «generar
el sitio», never «compilación»). Numbers follow each language's conventions: a
decimal comma and agreeing plurals in Spanish («1 hilo», «2 hilos», «1,2 s»).
"""

from __future__ import annotations

LANGUAGES = ("en", "es")
DEFAULT = "en"

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "code": "Code",
        "theme_permalink": "Permanent link",
        "theme_copy": "Copy to clipboard",
        "theme_copied": "Copied!",
        "theme_search_prompt": "Type to start searching",
        "ran_on": "Ran on",
        "captured_on": "Captured on",
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
        "reproduce": "Reproduce it on your machine: download {source}, or the kit {kit} ({size} KB: this page's "
        "snippets, the files they import, their records), then `python reproduce.py {id}`: it says what matched "
        "and shows both machines side by side.",
        "atlas_summary": "The record lists {overloads} operator overloads in {namespaces} namespaces ({aten} of "
        "them aten), registered in torch {torch}: {cpu} have a kernel of their own under CPU, {meta} under Meta.",
        "atlas_cuda_missing": "CUDA column: not captured on a GPU yet; it fills in when the GPU capture runs (the "
        "GPU machine has its own torch, named then).",
        "atlas_cuda": "CUDA column: from the CUDA record, torch {torch} on the GPU machine.",
        "atlas_search": "Find an operator (part of its name or a tag):",
        "atlas_composite": "Composite kind:",
        "atlas_any": "any",
        "atlas_filter_cpu": "has a CPU kernel",
        "atlas_filter_decomposed": "decomposed by Inductor",
        "atlas_filter_backward": "has a backward",
        "atlas_composite_implicit": "composite (implicit)",
        "atlas_composite_explicit": "composite (explicit)",
        "atlas_composite_explicit-non-functional": "composite (explicit, non-functional)",
        "atlas_composite_none": "kernels per backend",
        "atlas_inductor_lowered": "Inductor lowers it",
        "atlas_inductor_decomposed": "Inductor decomposes it first",
        "atlas_inductor_fallback": "Inductor calls the ATen kernel",
        "atlas_inductor_composite": "decomposed before Inductor sees it",
        "atlas_inductor_none": "no Inductor rule",
        "atlas_js_shown": "{shown} of {total} overloads shown",
        "atlas_js_schema": "Schema",
        "atlas_js_tags": "Tags",
        "atlas_js_kernels": "Keys with a kernel of their own, and the file that registered it",
        "atlas_js_none": "none",
        "atlas_js_composite": "Composite kind",
        "atlas_js_explain_implicit": "A math kernel written in other operators fills the autograd and backend "
        "slots: a call is decomposed at its autograd key, autograd records the operators it calls, and no backward "
        "node of its own appears (linear in theory 01).",
        "atlas_js_explain_explicit": "One kernel for every backend, registered under CompositeExplicitAutograd, and "
        "a backward formula of its own.",
        "atlas_js_explain_explicit-non-functional": "One kernel for every backend, registered under "
        "CompositeExplicitAutogradNonFunctional: functionalization's replacement for an in-place or view operator, "
        "with a backward formula of its own.",
        "atlas_js_explain_none": "No composite kernel: each backend key has its own kernel (or none), as the table "
        "above lists.",
        "atlas_js_decomposition": "Python decomposition (torch._decomp)",
        "atlas_js_decomposition_core": "yes, in the core-ATen set",
        "atlas_js_decomposition_yes": "yes, outside the core-ATen set",
        "atlas_js_decomposition_no": "no",
        "atlas_js_inductor": "What Inductor does",
        "atlas_js_grad_fn": "grad_fn a call records (on OpInfo's first sample input)",
        "atlas_js_decomposes_to": "Operators its decomposition produces (traced on that sample)",
        "atlas_js_not_sampled": "not called: OpInfo has no sample input for it",
        "atlas_js_walks": "Which keys a call visits, highest first (theory 01 walks linear the same way)",
        "atlas_js_walk_call": "on a CPU tensor (with or without requires_grad: the key set is the same)",
        "atlas_js_walk_autocast": "under torch.autocast",
        "atlas_js_walk_inference_mode": "in inference_mode",
        "atlas_js_walk_meta": "on a meta tensor",
        "atlas_js_link": "Link to this operator",
        "atlas_js_failed": "The data of this operator could not be loaded.",
        "rank": "rank {rank}",
        "rank_no_output": "This rank printed nothing.",
        "collectives": (
            "Calls this rank made to the collective and point-to-point functions of `torch.distributed`: {calls}."
        ),
        "no_collectives": "This rank called none of the collective or point-to-point functions of `torch.distributed`.",
        "long": "Output: {lines} lines (click to open)",
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
        "header_lines": "lines 1–{last}: its header (devices, dependencies, environment)",
        "lab_download_title": "Run this lab on your machine",
        "lab_download": "Download {file} ({size} KB): the notebook, the Python files its code imports and the running "
        "example's weights. It runs outside this site's repository, on Python with torch and Jupyter.",
        "expected_error": "Raises {type}, as this example intends.",
        "not_captured_title": "Not captured on a GPU yet",
        "not_captured": "This snippet has not been run on a CUDA device yet, so there is no GPU output to show. "
        "Maintainers capture it with `make gpu-records` on a CUDA machine.",
        "stale_title": "Stale output",
        "stale": "This output was produced by an earlier version of the snippet ({reason}). "
        "It is shown only in a local preview; a strict build refuses it.",
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
    },
    "es": {
        "code": "Código",
        "theme_permalink": "Enlace permanente",
        "theme_copy": "Copiar al portapapeles",
        "theme_copied": "¡Copiado!",
        "theme_search_prompt": "Escribe para empezar a buscar",
        "ran_on": "Ejecutado en",
        "captured_on": "Capturado en",
        "commit": "commit",
        "thread": "hilo",
        "kernels_for": "kernels {isa}",
        "cpu_has": "la CPU tiene {isa}",
        "no_avx512": ", sin AVX-512",
        "threads": "hilos",
        "published": "Esta salida se publica con {files}:",
        "file": "archivo",
        "files": "archivos",
        "stdout": "stdout",
        "stderr": "stderr",
        "no_output": "El fragmento no imprimió nada.",
        "reproduce": "Reprodúcelo en tu máquina: descarga {source}, o el kit {kit} ({size} KB: los fragmentos de "
        "esta página, los archivos que importan y sus registros de ejecución), y ejecuta `python reproduce.py {id}`: "
        "dice qué coincidió y muestra las dos máquinas lado a lado.",
        "atlas_summary": "El registro enumera {overloads} sobrecargas de operadores en {namespaces} espacios de "
        "nombres ({aten} de ellas de aten), registradas en torch {torch}: {cpu} tienen un kernel propio bajo CPU, "
        "{meta} bajo Meta.",
        "atlas_cuda_missing": "Columna CUDA: aún no capturada en una GPU; se rellena cuando se ejecute la captura "
        "en la GPU (la máquina con GPU tiene su propio torch, que se indicará entonces).",
        "atlas_cuda": "Columna CUDA: del registro de ejecución de CUDA, torch {torch} en la máquina con GPU.",
        "atlas_search": "Busca un operador (parte de su nombre o una etiqueta):",
        "atlas_composite": "Tipo de composición:",
        "atlas_any": "cualquiera",
        "atlas_filter_cpu": "tiene kernel de CPU",
        "atlas_filter_decomposed": "Inductor lo descompone",
        "atlas_filter_backward": "tiene backward",
        "atlas_composite_implicit": "compuesto (implícito)",
        "atlas_composite_explicit": "compuesto (explícito)",
        "atlas_composite_explicit-non-functional": "compuesto (explícito, no funcional)",
        "atlas_composite_none": "kernels por backend",
        "atlas_inductor_lowered": "Inductor le aplica lowering",
        "atlas_inductor_decomposed": "Inductor lo descompone primero",
        "atlas_inductor_fallback": "Inductor llama al kernel de ATen",
        "atlas_inductor_composite": "se descompone antes de llegar a Inductor",
        "atlas_inductor_none": "sin regla en Inductor",
        "atlas_js_shown": "se muestran {shown} de {total} sobrecargas",
        "atlas_js_schema": "Esquema",
        "atlas_js_tags": "Etiquetas",
        "atlas_js_kernels": "Claves con un kernel propio, y el archivo que lo registró",
        "atlas_js_none": "ninguna",
        "atlas_js_composite": "Tipo de composición",
        "atlas_js_explain_implicit": "Un kernel matemático escrito con otros operadores ocupa las entradas de "
        "autograd y de backend: la llamada se descompone en su clave de autograd, autograd graba los operadores a los "
        "que llama y no aparece un nodo de backward propio (linear, en la teoría 01).",
        "atlas_js_explain_explicit": "Un solo kernel para todos los backends, registrado bajo "
        "CompositeExplicitAutograd, con su propia fórmula de backward.",
        "atlas_js_explain_explicit-non-functional": "Un solo kernel para todos los backends, registrado bajo "
        "CompositeExplicitAutogradNonFunctional: lo que la funcionalización pone en lugar de un operador in situ o de "
        "vista, con su propia fórmula de backward.",
        "atlas_js_explain_none": "Sin kernel compuesto: cada clave de backend tiene su propio kernel (o ninguno), "
        "como enumera la tabla de arriba.",
        "atlas_js_decomposition": "Descomposición en Python (torch._decomp)",
        "atlas_js_decomposition_core": "sí, en el conjunto core-ATen",
        "atlas_js_decomposition_yes": "sí, fuera del conjunto core-ATen",
        "atlas_js_decomposition_no": "no",
        "atlas_js_inductor": "Qué hace Inductor",
        "atlas_js_grad_fn": "grad_fn que graba una llamada (con la primera entrada de ejemplo de OpInfo)",
        "atlas_js_decomposes_to": "Operadores que produce su descomposición (trazada con esa entrada)",
        "atlas_js_not_sampled": "no se llamó: OpInfo no tiene entrada de ejemplo para él",
        "atlas_js_walks": "Qué claves visita una llamada, de la más alta a la más baja (la teoría 01 recorre linear "
        "igual)",
        "atlas_js_walk_call": "con un tensor de CPU (con o sin requires_grad: el conjunto de claves es el mismo)",
        "atlas_js_walk_autocast": "bajo torch.autocast",
        "atlas_js_walk_inference_mode": "en inference_mode",
        "atlas_js_walk_meta": "con un tensor meta",
        "atlas_js_link": "Enlace a este operador",
        "atlas_js_failed": "No se pudieron cargar los datos de este operador.",
        "rank": "rank {rank}",
        "rank_no_output": "Este rank no imprimió nada.",
        "collectives": (
            "Llamadas que hizo este rank a las funciones colectivas y punto a punto de `torch.distributed`: {calls}."
        ),
        "no_collectives": "Este rank no llamó a ninguna función colectiva ni punto a punto de `torch.distributed`.",
        "long": "Salida: {lines} líneas (haz clic para abrirla)",
        "omitted": "Aquí se omiten {lines} líneas: el ejecutor conserva los primeros y los últimos 32 KiB de cada "
        "flujo.",
        "volatile": "Las líneas marcadas dependen de la máquina por naturaleza; son lo que imprimió {machine}. Las "
        "pruebas comparan byte a byte todas las demás líneas en cada ejecución, y estas no.",
        "artifact": "Archivo escrito por el fragmento: {name} ({lines} líneas)",
        "figure": "Imagen dibujada por el fragmento a partir de lo que midió: {name}",
        "diagram_title": "Diagrama dibujado por el fragmento a partir de lo que observó ({name})",
        "diagram_math kernel": "kernel matemático",
        "diagram_autograd kernel": "kernel de autograd",
        "diagram_kernel": "kernel",
        "diagram_fallthrough": "fallthrough (pasa de largo)",
        "diagram_default backend kernel": "kernel de backend por defecto",
        "diagram_calls": "llama a",
        "open_file": "abrir {name}",
        "artifacts_many": "El fragmento escribió {files}:",
        "header_lines": "líneas 1–{last}: su cabecera (dispositivos, dependencias, entorno)",
        "lab_download_title": "Ejecuta este laboratorio en tu máquina",
        "lab_download": "Descarga {file} ({size} KB): el cuaderno, los archivos de Python que importa su código y los "
        "pesos del ejemplo conductor. Funciona fuera del repositorio de este sitio, con Python, torch y Jupyter.",
        "expected_error": "Lanza {type}, como pretende este ejemplo.",
        "not_captured_title": "Aún no capturado en una GPU",
        "not_captured": "Este fragmento todavía no se ha ejecutado en un dispositivo CUDA, así que no hay salida de "
        "GPU que mostrar. Quienes mantienen el sitio la capturan con `make gpu-records` en una máquina con CUDA.",
        "stale_title": "Salida obsoleta",
        "stale": "Esta salida la produjo una versión anterior del fragmento ({reason}). Solo se muestra en una "
        "vista previa local; al generar el sitio en modo estricto se rechaza.",
        "failed_title": "Esta ejecución falló",
        "missing_title": "No hay ninguna salida grabada",
        "missing": "No hay registro de {device} para este fragmento. Ejecuta `make records`.",
        "corrupt_title": "Registro ilegible",
        "outdated_title": "Traducción desactualizada",
        "outdated": "La página en inglés ha cambiado desde que se tradujo esta. Puede que falte algo aquí: "
        "consulta la [versión en inglés]({english_url}).",
        "report_snippet": "Fragmento",
        "report_device": "Dispositivo",
        "report_status": "Estado",
        "report_wall": "Tiempo",
        "report_torch": "torch",
        "report_where": "Dónde",
        "report_date": "Fecha",
        "report_warnings": "Avisos",
        "report_warnings_title": "Avisos que emitieron las ejecuciones ({n})",
        "report_category": "Categoría",
        "report_module": "Lo emitió",
        "report_message": "Mensaje",
        "status_current": "al día",
        "status_failed": "fallido",
        "status_timeout": "tiempo agotado",
        "status_stale": "obsoleto",
        "status_missing": "aún no capturado",
        "status_corrupt": "ilegible",
        "report_summary": "{total} ejecuciones de {snippets} fragmentos: {ok} al día, {missing} aún sin capturar en "
        "una GPU, {bad} con algún problema.",
        "drift_summary": "{total} fragmentos de CPU comparados, torch {a} ({a_date}) frente a torch {b} ({b_date}): "
        "{changed} con cambios, {unchanged} sin cambios, {other} solo en un lado.",
        "drift_classes": "De los cambios: {real} en lo que muestra el fragmento, {build} por el build de torch "
        "(kernels de CUDA registrados, un aviso por la falta de CUDA), {volatile} solo en líneas que el fragmento "
        "declara dependientes de la máquina, {lines} solo en números de línea dentro de los archivos de torch.",
        "drift_unchanged": "sin cambios",
        "drift_changed": "cambió",
        "drift_only-a": "solo antes",
        "drift_only-b": "solo después",
        "drift_missing": "en ninguno de los dos",
        "drift_kind": "Tipo de cambio",
        "drift_kind_real": "lo que muestra el fragmento",
        "drift_kind_build": "build de torch",
        "drift_kind_line-numbers": "solo números de línea",
        "drift_kind_volatile": "solo líneas que dependen de la máquina",
        "drift_kind_none": "—",
        "drift_edited": "fragmento editado después de esta comparación",
        "drift_diff": "Diff de la salida grabada",
        "drift_warnings_title": "Avisos de {snippet} que cambia la actualización:",
        "drift_warning_new": "nuevo:",
        "drift_warning_gone": "desaparece:",
        "atlas_drift_title": "Qué cambia la actualización en el atlas del dispatcher ({snippet}):",
        "atlas_drift_added": "{n} sobrecargas de operadores añadidas:",
        "atlas_drift_removed": "{n} sobrecargas de operadores retiradas:",
        "atlas_drift_kernels_gained": "{n} sobrecargas ganaron un kernel bajo alguna clave:",
        "atlas_drift_kernels_lost": "{n} sobrecargas perdieron un kernel bajo alguna clave:",
        "atlas_drift_composite": "{n} sobrecargas cambiaron de tipo de composición:",
        "atlas_drift_decomposition": "{n} sobrecargas ganaron o perdieron una descomposición en Python:",
        "atlas_drift_inductor": "{n} sobrecargas reciben otro trato de Inductor:",
        "atlas_drift_grad_fn": "{n} sobrecargas graban otro grad_fn:",
        "atlas_drift_none": "ningún operador cambió en lo que muestra el atlas.",
    },
}


def text(lang: str, key: str, **values: object) -> str:
    """A UI string; a key missing in one language is a bug caught by the tests."""
    return STRINGS[lang][key].format(**values)


def number(lang: str, value: float, digits: int = 1) -> str:
    """A decimal number as each language writes it: ``1.2`` in English, ``1,2`` in Spanish."""
    written = f"{value:.{digits}f}"
    return written.replace(".", ",") if lang == "es" else written


def count(lang: str, n: int, key: str) -> str:
    """``1 thread``, ``2 threads``; ``key`` names the singular, ``key + 's'`` the plural."""
    return f"{n} {text(lang, key if n == 1 else key + 's')}"
