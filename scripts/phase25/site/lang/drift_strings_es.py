"""The drift page's strings in Spanish, in the vocabulary of glossary_es.toml: its reader summary, its table, and the
execution report's pointer to it (merged into strings_es.py)."""

STRINGS: dict[str, str] = {
    "drift_region": "Cada fragmento comparado y cómo cambió su salida",
    "drift_readers_title": "Lo que notará quien lee",
    "drift_readers_missing": "Aún no se ha escrito por qué importan estos cambios a quien lee: cada uno aparece con "
    "su primera línea cambiada.",
    "drift_release_title": "Cambios de la versión, torch {a} → {b}",
    "drift_build_title": "Cambios del build, no de la versión: {a} → {b}",
    "drift_build_rule": "La regla: el lado anterior es el wheel solo para CPU y el nuevo, el build CUDA de PyPI, "
    "ejecutado en una máquina sin GPU. Un cambio es del build si desaparece al quitar las líneas que nombran CUDA, "
    "NVIDIA o una GPU y al tapar las celdas de las columnas de tabla encabezadas por CUDA; en el atlas, un kernel "
    "nuevo bajo una clave que nombra CUDA es del build. Lo que registra un build CUDA se lee en las tablas del "
    "dispatcher; ejecutarlo requiere una GPU.",
    "drift_quiet": "No aparecen aquí: {quiet} salidas que solo difieren en números de línea dentro de los archivos "
    "de torch o en líneas que el fragmento declara dependientes de la máquina, y {only} fragmentos sin salida con "
    "torch {a} que comparar ({failed} de ellos fallan con esa versión; la tabla dice por qué).",
    "drift_diff_link": "diff",
    "drift_diff_lines": "Diff de la salida registrada ({n} líneas)",
    "drift_download": "Este diff tiene {n} líneas ({size} KB), demasiadas para una página; descárgalo:",
    "drift_failed": "falla con torch {torch}: {error}",
    "atlas_drift_more": "y {n} más (todas en el diff)",
    "atlas_drift_kernels_gained_build": "Sobrecargas que ganaron un kernel bajo una clave CUDA, por el build y no "
    "por la versión ({n}):",
    "drift_current": "Lo que cambió la última actualización en estas salidas:",
    "drift_earlier": "Informes anteriores, conservados como historia:",
    "changed_with_build": "cambió con el build CUDA",
}
