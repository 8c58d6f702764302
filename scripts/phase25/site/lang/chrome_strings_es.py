"""The words the site writes about a record's own words, in Spanish, in the vocabulary of glossary_es.toml
(merged into strings_es.py; see chrome_strings_en.py)."""

STRINGS: dict[str, str] = {
    "atlas_js_stage_import torch": "import torch",
    "atlas_js_stage_+ torch._dynamo": "+ torch._dynamo",
    "atlas_js_stage_+ torch._inductor": "+ torch._inductor",
    "atlas_js_stage_+ OpInfo's samples run": "+ ejecución de las entradas de ejemplo de OpInfo",
    # The words of the pictures a snippet draws (an SVG's <text>), as the page of this language shows them
    "picture: DDP, step 2: the backward of each layer and the all-reduce of each bucket, as measured (the times "
    "differ on every run)": "DDP, paso 2: el backward de cada capa y el all-reduce de cada bucket, tal como se "
    "midieron (los tiempos cambian en cada ejecución)",
    "picture: main thread": "hilo principal",
    "picture: gloo threads": "hilos de gloo",
    "picture: rest of the backward": "resto del backward",
    "picture: all-reduce issued": "all-reduce lanzado",
    "picture: all-reduce running": "all-reduce en curso",
    "picture: ms since the backward began on that rank": "ms desde que empezó el backward en ese rank",
    "picture: bucket {n}": "bucket {n}",
    "picture: rank {n}": "rank {n}",
    # How a page's prose says "la sección de X, más abajo", "ejercicio N, más abajo", "X (más arriba)" (see the
    # English strings)
    "reader_path_section_ref": r"\bsecci[oó]n\s+(?:de|del|sobre)\s+(?P<name>[\w`.'’ -]{2,40}?),?\s+"
    r"(?:de\s+)?(?:m[aá]s\s+)?(?P<dir>arriba|abajo)\b",
    "reader_path_exercise_ref": r"(?i)\bejercicio\s+(?P<n>\d+),?\s+(?:de\s+)?(?:m[aá]s\s+)?(?P<dir>arriba|abajo)\b",
    "reader_path_aside_ref": r"(?P<name>[\w`'’.-]+\s+[\w`'’.-]+)\s+\((?:m[aá]s\s+)?(?P<dir>arriba|abajo)\)",
    "reader_path_up": "arriba",
    "reader_path_stop": "la el de del los las y en desde",
    "reader_path_exercise": "Ejercicio",
    "llms_twin_link": "Esta página en Markdown, con cada salida que muestra",
    "llms_intro": "Cada página de este sitio enseña una pieza interna de PyTorch con la salida de código que se "
    "ejecutó. Cada enlace de abajo lleva a una página en Markdown: su texto, el código que muestra y cada salida "
    "registrada tal como se imprimió, con la línea que dice en qué máquina, con qué torch y cuándo se ejecutó. "
    "Las tablas que se construyen con todos los registros (el informe de ejecución, los informes de deriva, el "
    "atlas del dispatcher) enlazan a la página HTML que las muestra.",
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
