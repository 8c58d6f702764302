"""The words the site writes about a record's own words, in Spanish, in the vocabulary of glossary_es.toml
(merged into strings_es.py; see chrome_strings_en.py)."""

STRINGS: dict[str, str] = {
    "atlas_js_stage_import torch": "import torch",
    "atlas_js_stage_+ torch._dynamo": "+ torch._dynamo",
    "atlas_js_stage_+ torch._inductor": "+ torch._inductor",
    "atlas_js_stage_+ OpInfo's samples run": "+ ejecución de las entradas de ejemplo de OpInfo",
    "theme_skip": "Saltar al contenido",
    "theme_footer": "Pie de página",
    "unknown_snippet_title": "Fragmento desconocido",
    "drift_report_title": "Informe de deriva",
    "reproduce_readme": "# Reproducir las salidas de {folder}\n\nCada salida de la página la imprimió un fragmento en "
    "la máquina que genera el sitio. Para imprimirla en la tuya:\n\n```bash\npython3 -m venv .venv && "
    ".venv/bin/pip install torch=={torch}\n.venv/bin/python reproduce.py {example}\n```\n\nEjecuta el fragmento con "
    "los mismos ajustes fijados que el sitio (dos hilos, kernels AVX2, la rama reproducible de MKL);\nluego dice qué "
    "partes de la salida coinciden con el registro de ejecución, muestra un diff de las que no\ny pone las dos "
    "máquinas una al lado de la otra. Fragmentos de esta carpeta: {ids}.\n",
}
