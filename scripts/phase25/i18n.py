"""The few strings the renderer writes itself, in each language of the site."""

from __future__ import annotations

LANGUAGES = ("en", "es")
DEFAULT = "en"

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "code": "Code",
        "ran_on": "Ran on",
        "captured_on": "Captured on",
        "commit": "commit",
        "threads": "{n} threads",
        "published": "Published with this output ({files} files):",
        "stdout": "stdout",
        "stderr": "stderr",
        "no_output": "The snippet printed nothing.",
        "long": "Output: {lines} lines (click to open)",
        "artifact": "File written by the snippet: {name} ({lines} lines)",
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
        "status_current": "ok",
        "status_failed": "failed",
        "status_timeout": "timed out",
        "status_stale": "stale",
        "status_missing": "not captured yet",
        "status_corrupt": "unreadable",
        "report_summary": "{total} runs of {snippets} snippets: {ok} current, {missing} not captured on a GPU yet, "
        "{bad} with a problem.",
        "drift_summary": "{total} CPU snippets compared, torch {a} ({a_date}) against torch {b} ({b_date}): "
        "{changed} changed, {unchanged} unchanged, {other} on one side only.",
        "drift_unchanged": "unchanged",
        "drift_changed": "changed",
        "drift_only-a": "only before",
        "drift_only-b": "only after",
        "drift_missing": "in neither",
        "drift_edited": "snippet edited since this comparison",
        "drift_diff": "Diff of the recorded output",
    },
    "es": {
        "code": "Código",
        "ran_on": "Ejecutado en",
        "captured_on": "Capturado en",
        "commit": "commit",
        "threads": "{n} hilos",
        "published": "Publicado con esta salida ({files} archivos):",
        "stdout": "stdout",
        "stderr": "stderr",
        "no_output": "El fragmento no imprimió nada.",
        "long": "Salida: {lines} líneas (pulsa para abrir)",
        "artifact": "Archivo escrito por el fragmento: {name} ({lines} líneas)",
        "expected_error": "Lanza {type}, como pretende este ejemplo.",
        "not_captured_title": "Aún no capturado en una GPU",
        "not_captured": "Este fragmento todavía no se ha ejecutado en un dispositivo CUDA, así que no hay salida de "
        "GPU que mostrar. Quienes mantienen el sitio la capturan con `make gpu-records` en una máquina con CUDA.",
        "stale_title": "Salida obsoleta",
        "stale": "Esta salida la produjo una versión anterior del fragmento ({reason}). Solo se muestra en una "
        "vista previa local; una compilación estricta la rechaza.",
        "failed_title": "Esta ejecución falló",
        "missing_title": "No hay salida registrada",
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
        "status_current": "correcto",
        "status_failed": "falló",
        "status_timeout": "agotó el tiempo",
        "status_stale": "obsoleto",
        "status_missing": "aún no capturado",
        "status_corrupt": "ilegible",
        "report_summary": "{total} ejecuciones de {snippets} fragmentos: {ok} al día, {missing} aún sin capturar en "
        "una GPU, {bad} con algún problema.",
        "drift_summary": "{total} fragmentos de CPU comparados, torch {a} ({a_date}) frente a torch {b} ({b_date}): "
        "{changed} cambiaron, {unchanged} sin cambios, {other} solo en un lado.",
        "drift_unchanged": "sin cambios",
        "drift_changed": "cambió",
        "drift_only-a": "solo antes",
        "drift_only-b": "solo después",
        "drift_missing": "en ninguno",
        "drift_edited": "fragmento editado después de esta comparación",
        "drift_diff": "Diff de la salida registrada",
    },
}


def text(lang: str, key: str, **values: object) -> str:
    """A UI string; a key missing in one language is a bug caught by the tests."""
    return STRINGS[lang][key].format(**values)
